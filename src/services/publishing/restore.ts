// Restore (SPEC §7 adviceset/restore/{versionId}): a version's content becomes the working draft again.
//
// The version's rules come back in its order: a rule that still exists in the set keeps its id (Rule Calls from other
// sets keep working), others are created; the draft's other live rules are soft-deleted (recoverable as before). The
// trees keep node identity (restore-trees.ts): a node the draft still holds, or held, is the same row afterwards, so
// comparing versions pairs it and its comments stay. Dictionary entries the version uses that the set no longer sees
// are created for the set. One transaction, one audit row on the version.
import type { Db } from '../../db/client.ts'
import { insertEntity } from '../../db/queries/entities.ts'
import { insertRule, listRules, listSetRulesEver, lockAdviceSetRow, updateRule, type RuleRow } from '../../db/queries/rules.ts'
import { recordIndexTask } from '../../db/queries/search.ts'
import { ENTITY_TYPES, type EntityModel, type RuleModel } from '../../engine/index.ts'
import { dictionaryFor } from '../authoring/advice-set-model.ts'
import { ENTITY_ADVICE_SET } from '../library/advice-sets.ts'
import { audit } from '../audit/audit.ts'
import type { Actor, Deps } from '../context.ts'
import { assertWritable } from '../accounts/visibility.ts'
import type { VersionSnapshot } from './snapshot.ts'
import { restoreTrees } from './restore-trees.ts'
import { versionWithSet } from './workflow.ts'
import { ENTITY_VERSION, versionAuditView } from './versions.ts'

interface RestoreResult { adviceSetId: number; versionId: number; rules: number; nodes: number; entities: number }

/** An entry the version uses and the set no longer sees comes back as the set's own (another set's of that name does not matter). */
async function restoreEntity(tx: Db, actor: Actor, set: { id: number; ownerId: string }, entity: EntityModel): Promise<void> {
  const created = await insertEntity(tx, {
    ownerId: set.ownerId, adviceSetId: set.id, entityTypeId: entity.kind === 'formula' ? ENTITY_TYPES.formula.id : ENTITY_TYPES.variable.id,
    reservedName: entity.name, dataType: entity.dataType ?? null, validOptions: entity.options ?? [], isClosedSet: entity.isClosedSet ?? false,
    displayFormat: entity.displayFormat ?? null, defaultValue: entity.defaultValue ?? null, expression: entity.expression ?? null,
    isConstant: entity.isConstant ?? false, description: entity.description ?? '', createdBy: actor.userId,
  })
  // 'entity' is the dictionary's audit name (as in authoring/set-copy.ts, spelled out to keep authoring/entities.ts out).
  await audit(tx, actor, { ownerId: set.ownerId, action: 'create', entityType: 'entity', entityId: created.id, after: { id: created.id, name: created.reservedName, reservedName: created.reservedName, parentId: created.adviceSetId } })
}

/** Of two rows holding one key, the one to bring back: a live one, else the latest deleted. */
function preferredRule(a: RuleRow, b: RuleRow): RuleRow {
  if ((a.deletedAt === null) !== (b.deletedAt === null)) return a.deletedAt === null ? a : b
  return (a.deletedAt?.getTime() ?? 0) >= (b.deletedAt?.getTime() ?? 0) ? a : b
}

/**
 * Writes `rules` (a version's, or a file's) over the set's working draft, in their order: a rule the set holds or held
 * (paired by key, else, for versions older than rule keys, by id) keeps its row and id, so Rule Calls from other sets
 * keep working; others are created with their key; the draft's other live rules are soft-deleted at `now`. The trees
 * keep node identity (restore-trees.ts). The caller holds the set's row (lockAdviceSetRow).
 */
export async function writeDraftRules(tx: Db, actor: Actor, set: { id: number; ownerId: string }, rules: readonly RuleModel[], now: Date): Promise<{ live: RuleRow[]; nodes: number }> {
  const live = await listRules(tx, set.id)
  // Every live rule leaves its place first, so the new order can be written without two rules on one place.
  for (const rule of live) await updateRule(tx, rule.id, { deletedAt: now, updatedBy: actor.userId })
  const ever = await listSetRulesEver(tx, set.id)
  const byKey = new Map<string, RuleRow>()
  for (const row of ever) byKey.set(row.key, byKey.has(row.key) ? preferredRule(byKey.get(row.key)!, row) : row)
  const byId = new Map(ever.map((row) => [String(row.id), row]))

  const ruleIds = new Map<string, number>()
  const ruleNames = new Map<number, string>()
  const taken = new Set<number>()
  for (const [position, rule] of rules.entries()) {
    const found = rule.key !== undefined ? byKey.get(rule.key) : byId.get(rule.id)
    const existing = found && !taken.has(found.id) ? found : undefined
    const fields = { name: rule.name, position, onlyWhenCalled: rule.onlyWhenCalled === true }
    const placed = existing
      ? await updateRule(tx, existing.id, { ...fields, deletedAt: null, updatedBy: actor.userId })
      : await insertRule(tx, { adviceSetId: set.id, ...fields, ...(rule.key !== undefined ? { key: rule.key } : {}), createdBy: actor.userId })
    taken.add(placed.id)
    ruleIds.set(rule.id, placed.id)
    ruleNames.set(placed.id, placed.name)
  }
  // A rule deleted before kept its nodes live under it; they give way to the new trees like the draft's.
  const replacedRuleIds = new Set([...live.map((r) => r.id), ...ruleIds.values()])
  const nodes = await restoreTrees(tx, actor, rules, { adviceSetId: set.id, ownerId: set.ownerId, ruleIds, replacedRuleIds, ruleNames, deletedAt: now })
  return { live, nodes }
}

export async function restoreVersion(deps: Deps, actor: Actor, versionId: number): Promise<RestoreResult> {
  const { version, set } = await versionWithSet(deps.db, actor, versionId)
  assertWritable(actor, set)
  const snapshot = version.snapshot as VersionSnapshot
  return deps.db.transaction(async (tx) => {
    await lockAdviceSetRow(tx, set.id)
    const { live, nodes } = await writeDraftRules(tx, actor, set, snapshot.model.rules, new Date())

    const seen = new Set((await dictionaryFor(tx, set)).map((e) => e.reservedName.toLowerCase()))
    let entities = 0
    for (const entity of snapshot.model.entities) {
      if (seen.has(entity.name.toLowerCase())) continue
      await restoreEntity(tx, actor, set, entity)
      entities += 1
      seen.add(entity.name.toLowerCase())
    }
    const result = { adviceSetId: set.id, versionId: version.id, rules: snapshot.model.rules.length, nodes, entities }
    // Logged on the version (the activity log's restore of an advice set row would put back set fields, not rules);
    // the set's search documents are rebuilt from its index task.
    await audit(tx, actor, {
      ownerId: set.ownerId, action: 'restore', entityType: ENTITY_VERSION, entityId: version.id,
      before: { draftRules: live.map((r) => ({ id: r.id, name: r.name })) },
      after: { ...versionAuditView(version), restoredIntoDraft: result },
    })
    await recordIndexTask(tx, ENTITY_ADVICE_SET, String(set.id))
    return result
  })
}
