// Restore (SPEC §7 adviceset/restore/{versionId}): a version's content becomes the working draft again.
//
// The draft's live rules and nodes are soft-deleted (recoverable as before), then the version's rules come back in
// its order: a rule that still exists in the set keeps its id (Rule Calls from other sets keep working), others are
// created. Its trees are written as new nodes. Dictionary entries the version uses that the set no longer sees are
// created for the set. One transaction, one audit row on the version.
import type { Db } from '../../db/client.ts'
import { insertEntity } from '../../db/queries/entities.ts'
import { insertNode, listNodes, setNodesDeleted } from '../../db/queries/rule-nodes.ts'
import { findRule, insertRule, listRules, lockAdviceSetRow, updateRule } from '../../db/queries/rules.ts'
import { recordIndexTask } from '../../db/queries/search.ts'
import { ENTITY_TYPES, type EntityModel, type NodeModel } from '../../engine/index.ts'
import { dictionaryFor } from '../authoring/advice-set-model.ts'
import { relinkSupplements } from '../files/links.ts'
import { splitSources } from '../files/sources.ts'
import { ENTITY_ADVICE_SET } from '../library/advice-sets.ts'
import { audit } from '../audit/audit.ts'
import type { Actor, Deps } from '../context.ts'
import { assertWritable } from '../accounts/visibility.ts'
import type { VersionSnapshot } from './snapshot.ts'
import { versionWithSet } from './workflow.ts'
import { ENTITY_VERSION, versionAuditView } from './versions.ts'

interface RestoreResult { adviceSetId: number; versionId: number; rules: number; nodes: number; entities: number }

async function insertTree(tx: Db, actor: Actor, ruleId: number, nodes: NodeModel[], parentId: number | null, ruleIds: Map<string, number>): Promise<number> {
  let count = 0
  for (const [position, node] of nodes.entries()) {
    const calledRuleId = node.calledRuleId === undefined ? null : ruleIds.get(node.calledRuleId) ?? Number(node.calledRuleId)
    // Linked supplements come back as links (the model joins them again), the node's own sources into its row.
    const { own, supplementIds } = splitSources(node.sources ?? [])
    const row = await insertNode(tx, {
      ruleId, parentId, position, type: node.type, expression: node.expression ?? null, variable: node.variable ?? null,
      headline: node.headline ?? null, text: node.text ?? null, question: node.question ?? null, calledRuleId,
      apiId: node.apiId ?? null, tags: node.tags ?? [], sources: own, createdBy: actor.userId,
    })
    await relinkSupplements(tx, actor, row.id, supplementIds)
    count += 1 + await insertTree(tx, actor, ruleId, node.children, row.id, ruleIds)
  }
  return count
}

/** An entry the version uses and the set no longer sees comes back as the set's own (another set's of that name does not matter). */
async function restoreEntity(tx: Db, actor: Actor, set: { id: number; ownerId: string }, entity: EntityModel): Promise<void> {
  const created = await insertEntity(tx, {
    ownerId: set.ownerId, adviceSetId: set.id, entityTypeId: entity.kind === 'formula' ? ENTITY_TYPES.formula.id : ENTITY_TYPES.variable.id,
    reservedName: entity.name, dataType: entity.dataType ?? null, validOptions: entity.options ?? [], isClosedSet: entity.isClosedSet ?? false,
    displayFormat: entity.displayFormat ?? null, defaultValue: entity.defaultValue ?? null, expression: entity.expression ?? null,
    isConstant: entity.isConstant ?? false, description: entity.description ?? '', createdBy: actor.userId,
  })
  // 'entity' is the dictionary's audit name (as in advice-set-model.ts, spelled out to keep authoring/entities.ts out).
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
    await setNodesDeleted(tx, (await listNodes(tx, live.map((r) => r.id))).map((n) => n.id), now, actor.userId)
    for (const rule of live) await updateRule(tx, rule.id, { deletedAt: now, updatedBy: actor.userId })

    const ruleIds = new Map<string, number>()
    for (const [position, rule] of snapshot.model.rules.entries()) {
      const existing = /^\d+$/.test(rule.id) ? await findRule(tx, Number(rule.id), { includeDeleted: true }) : undefined
      if (existing && existing.adviceSetId === set.id) {
        // A rule deleted before kept its nodes live under it; they give way to the version's tree like the others.
        await setNodesDeleted(tx, (await listNodes(tx, [existing.id])).map((n) => n.id), now, actor.userId)
        ruleIds.set(rule.id, (await updateRule(tx, existing.id, { name: rule.name, position, onlyWhenCalled: rule.onlyWhenCalled === true, deletedAt: null, updatedBy: actor.userId })).id)
      } else {
        ruleIds.set(rule.id, (await insertRule(tx, { adviceSetId: set.id, name: rule.name, position, onlyWhenCalled: rule.onlyWhenCalled === true, createdBy: actor.userId })).id)
      }
    }
    let nodes = 0
    for (const rule of snapshot.model.rules) nodes += await insertTree(tx, actor, ruleIds.get(rule.id)!, rule.nodes, null, ruleIds)

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
