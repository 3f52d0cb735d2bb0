// Restore (SPEC §7 adviceset/restore/{versionId}): a version's content becomes the working draft again.
//
// The version's rules come back in its order: a rule that still exists in the set keeps its id (Rule Calls from other
// sets keep working), others are created; the draft's other live rules are soft-deleted (recoverable as before). The
// trees keep node identity (restore-trees.ts): a node the draft still holds, or held, is the same row afterwards, so
// comparing versions pairs it and its comments stay. Dictionary entries the version uses that the set no longer sees
// are created for the set. One transaction, one audit row on the version.
import type { Db } from '../../db/client.ts'
import { insertEntity } from '../../db/queries/entities.ts'
import { findRule, insertRule, listRules, lockAdviceSetRow, updateRule } from '../../db/queries/rules.ts'
import { recordIndexTask } from '../../db/queries/search.ts'
import { ENTITY_TYPES, type EntityModel } from '../../engine/index.ts'
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

export async function restoreVersion(deps: Deps, actor: Actor, versionId: number): Promise<RestoreResult> {
  const { version, set } = await versionWithSet(deps.db, actor, versionId)
  assertWritable(actor, set)
  const snapshot = version.snapshot as VersionSnapshot
  return deps.db.transaction(async (tx) => {
    await lockAdviceSetRow(tx, set.id)
    const now = new Date()
    const live = await listRules(tx, set.id)
    // Every live rule leaves its place first, so the version's order can be written without two rules on one place.
    for (const rule of live) await updateRule(tx, rule.id, { deletedAt: now, updatedBy: actor.userId })

    const ruleIds = new Map<string, number>()
    const ruleNames = new Map<number, string>()
    for (const [position, rule] of snapshot.model.rules.entries()) {
      const existing = /^\d+$/.test(rule.id) ? await findRule(tx, Number(rule.id), { includeDeleted: true }) : undefined
      const fields = { name: rule.name, position, onlyWhenCalled: rule.onlyWhenCalled === true }
      const placed = existing && existing.adviceSetId === set.id
        ? await updateRule(tx, existing.id, { ...fields, deletedAt: null, updatedBy: actor.userId })
        : await insertRule(tx, { adviceSetId: set.id, ...fields, createdBy: actor.userId })
      ruleIds.set(rule.id, placed.id)
      ruleNames.set(placed.id, placed.name)
    }
    // A rule deleted before kept its nodes live under it; they give way to the version's tree like the draft's.
    const replacedRuleIds = new Set([...live.map((r) => r.id), ...ruleIds.values()])
    const nodes = await restoreTrees(tx, actor, snapshot.model.rules, { adviceSetId: set.id, ownerId: set.ownerId, ruleIds, replacedRuleIds, ruleNames, deletedAt: now })

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
