// What an advice set takes along when it is copied or transferred: its rules and trees (a copy), and the dictionary
// entries its content needs (both). Entries of the set itself (advice_set_id = the set) belong to it: a copy gets its
// own under the same names (names of one set only need to be unique in that set, schema/rules.ts), a transfer moves
// them. For another owner, the old owner's owner-wide entries the content uses come along too, unless the new owner
// has an owner-wide entry of that name already: that one is what the references mean there.
import type { Db } from '../../db/client.ts'
import type { AdviceSetRow } from '../../db/queries/advice-sets.ts'
import { findEntityByName, findEntitySeenBy, insertEntity, updateEntity, type EntityRow } from '../../db/queries/entities.ts'
import { copyNodeRows, listNodes, parentsFirst, type RuleNodeRow } from '../../db/queries/rule-nodes.ts'
import { insertRule, listRules } from '../../db/queries/rules.ts'
import { ENTITY_TYPES } from '../../engine/index.ts'
import { audit } from '../audit/audit.ts'
import type { Actor } from '../context.ts'
import { ConflictError } from '../errors.ts'
import { dictionaryFor, namesOfExpression, namesOfNode } from './advice-set-model.ts'

// 'entity' is the dictionary's audit name (authoring/entities.ts imports advice-set-model.ts, so it is spelled out here).
const ENTITY_DICTIONARY = 'entity'

interface EntriesToBring {
  /** The set's own entries. */
  own: EntityRow[]
  /** Owner-wide entries of the set's owner that its content uses, directly or through formulas (another owner only). */
  shared: EntityRow[]
}

async function entriesToBring(tx: Db, actor: Actor, set: AdviceSetRow, nodes: RuleNodeRow[], targetOwnerId: string): Promise<EntriesToBring> {
  const dictionary = await dictionaryFor(tx, set, actor)
  const own = dictionary.filter((e) => e.adviceSetId === set.id)
  if (targetOwnerId === set.ownerId) return { own, shared: [] }
  const byName = new Map(dictionary.map((e) => [e.reservedName, e]))
  const shared = new Map<string, EntityRow>()
  const pending = [
    ...nodes.flatMap((n) => { const used = namesOfNode(n); return [...used.variables, ...used.formulas, ...used.sets] }),
    ...own.flatMap((e) => (e.expression ? namesOfExpression(e.expression) : [])),
  ]
  while (pending.length > 0) {
    const entry = byName.get(pending.pop()!)
    // Provider entries are everyone's; the set's own are brought anyway.
    if (!entry || entry.ownerId !== set.ownerId || entry.adviceSetId !== null || shared.has(entry.reservedName)) continue
    shared.set(entry.reservedName, entry)
    if (entry.expression) pending.push(...namesOfExpression(entry.expression))
  }
  return { own, shared: [...shared.values()] }
}

function tagOf(entry: EntityRow): string {
  return entry.entityTypeId === ENTITY_TYPES.formula.id ? `[[${entry.reservedName}]]` : `{{${entry.reservedName}}}`
}

async function copyEntry(tx: Db, actor: Actor, entry: EntityRow, ownerId: string, adviceSetId: number | null): Promise<void> {
  const created = await insertEntity(tx, {
    ownerId, adviceSetId, entityTypeId: entry.entityTypeId, reservedName: entry.reservedName,
    dataType: entry.dataType, validOptions: entry.validOptions, isClosedSet: entry.isClosedSet, displayFormat: entry.displayFormat,
    defaultValue: entry.defaultValue, expression: entry.expression, isConstant: entry.isConstant, personal: entry.personal, description: entry.description, createdBy: actor.userId,
  })
  await audit(tx, actor, {
    ownerId, action: 'create', entityType: ENTITY_DICTIONARY, entityId: created.id,
    after: { id: created.id, name: created.reservedName, reservedName: created.reservedName, parentId: created.adviceSetId, copiedFrom: entry.id },
  })
}

/**
 * Gives the new owner the old owner's entries the set uses: owner-wide as they were, unless one of the new owner's
 * sets holds the name (then they are `adviceSetId`'s own). Returns how many were made.
 */
async function bringShared(tx: Db, actor: Actor, shared: EntityRow[], ownerId: string, adviceSetId: number): Promise<number> {
  let made = 0
  for (const entry of shared) {
    if (await findEntitySeenBy(tx, ownerId, entry.reservedName, null)) continue
    await copyEntry(tx, actor, entry, ownerId, (await findEntityByName(tx, ownerId, entry.reservedName)) ? adviceSetId : null)
    made += 1
  }
  return made
}

/**
 * The deep part of copying an advice set: its live rules in order with their trees (Rule Calls between its own rules
 * point to the copies; every copied node gets a new key) and the dictionary entries it needs (see the file's head).
 * Returns what was copied and each copied node's new id by its old one (what points at nodes, such as scenarios,
 * follows them).
 */
export async function copyAdviceSetContent(tx: Db, actor: Actor, source: AdviceSetRow, copy: AdviceSetRow) {
  const rules = await listRules(tx, source.id)
  const ruleIds = new Map<number, number>()
  for (const rule of rules) {
    ruleIds.set(rule.id, (await insertRule(tx, { adviceSetId: copy.id, name: rule.name, position: rule.position, onlyWhenCalled: rule.onlyWhenCalled, createdBy: actor.userId })).id)
  }
  const nodes = await listNodes(tx, rules.map((r) => r.id))
  const nodeIds = new Map<number, number>()
  for (const rule of rules) {
    const rows = parentsFirst(nodes.filter((n) => n.ruleId === rule.id))
    const copied = await copyNodeRows(tx, rows, ruleIds.get(rule.id)!, { createdBy: actor.userId, mapCalledRule: (id) => ruleIds.get(id) ?? id })
    for (const [from, to] of copied) nodeIds.set(from, to)
  }
  const { own, shared } = await entriesToBring(tx, actor, source, nodes, copy.ownerId)
  let entities = 0
  for (const entry of own) {
    if (await findEntitySeenBy(tx, copy.ownerId, entry.reservedName, null)) continue
    await copyEntry(tx, actor, entry, copy.ownerId, copy.id)
    entities += 1
  }
  entities += await bringShared(tx, actor, shared, copy.ownerId, copy.id)
  return { counts: { rules: rules.length, nodes: nodeIds.size, entities }, nodeIds }
}

/**
 * A set moving to `newOwnerId` (called before its owner changes) takes its own entries along (moved, ids kept) and
 * gets the old owner's entries it uses. Refused with 409 when the new owner has an owner-wide entry named like one of
 * the set's own: the set would then see that name twice.
 */
export async function takeEntriesAlong(tx: Db, actor: Actor, set: AdviceSetRow, newOwnerId: string): Promise<{ moved: number; created: number }> {
  const nodes = await listNodes(tx, (await listRules(tx, set.id)).map((r) => r.id))
  const { own, shared } = await entriesToBring(tx, actor, set, nodes, newOwnerId)
  for (const entry of own) {
    if (await findEntitySeenBy(tx, newOwnerId, entry.reservedName, null)) {
      throw new ConflictError('ownerId', `ownerId: ${tagOf(entry)} is in this advice set’s dictionary and in the new owner’s. Rename one of them, then transfer.`)
    }
  }
  for (const entry of own) {
    const moved = await updateEntity(tx, entry.id, { ownerId: newOwnerId, updatedBy: actor.userId })
    await audit(tx, actor, {
      ownerId: newOwnerId, action: 'update', entityType: ENTITY_DICTIONARY, entityId: entry.id,
      before: { id: entry.id, name: entry.reservedName, ownerId: entry.ownerId, parentId: entry.adviceSetId },
      after: { id: moved.id, name: moved.reservedName, ownerId: moved.ownerId, parentId: moved.adviceSetId },
    })
  }
  return { moved: own.length, created: await bringShared(tx, actor, shared, newOwnerId, set.id) }
}
