// Linking supplements to advice nodes (they become the node's sources in advice) and to advice sets (their
// reference material). Linking needs the right to read the supplement and to change the target; each link and
// unlink is audited as a `supplement-link` row.
import type { Db } from '../../db/client.ts'
import { findAdviceSet } from '../../db/queries/advice-sets.ts'
import { findNode } from '../../db/queries/rule-nodes.ts'
import { deleteLink, findLink, findSupplement, insertLink, listLinkedSupplements, type SupplementRow } from '../../db/queries/supplements.ts'
import { SUPPLEMENT_TARGETS, type SupplementTarget } from '../../db/schema/index.ts'
import { assertWritable, canCollaborateOnSet, canReadSet } from '../accounts/visibility.ts'
import { readableRule } from '../authoring/rules.ts'
import { audit } from '../audit/audit.ts'
import type { Actor, Deps } from '../context.ts'
import { NotFoundError, ValidationError } from '../errors.ts'
import type { SetFacts } from '../library/set-ref.ts'
import { readableSupplement } from './access.ts'
import { createLinkSupplement, listedView, publicView, type LinkInput } from './supplements.ts'
import { defaultTypeFor, supplementType } from './validate.ts'

export const ENTITY_SUPPLEMENT_LINK = 'supplement-link'
/** Sources an advice node may have; the uploader hides its add button at this count. */
export const MAX_NODE_SUPPLEMENTS = 10

export interface LinkTarget { targetType: SupplementTarget; targetId: number }

interface ResolvedTarget extends LinkTarget {
  ownerId: string
  label: string
  set: { id: number; ownerId: string; isPublic: boolean; isStarter: boolean }
}

export function targetTypeOf(raw: unknown): SupplementTarget {
  if (typeof raw === 'string' && (SUPPLEMENT_TARGETS as readonly string[]).includes(raw)) return raw as SupplementTarget
  throw new ValidationError('targetType', `targetType: must be one of ${SUPPLEMENT_TARGETS.join(', ')}.`)
}

/** The target as the actor may read it (404 otherwise): an advice node of a live rule, or an advice set. */
async function readableTarget(db: Db, actor: Actor, target: LinkTarget): Promise<ResolvedTarget> {
  if (target.targetType === 'adviceSet') {
    const set = await findAdviceSet(db, target.targetId)
    if (!set || !canReadSet(actor, set)) throw new NotFoundError('No advice set with this id')
    return { ...target, ownerId: set.ownerId, label: `advice set “${set.name}”`, set }
  }
  const node = await findNode(db, target.targetId)
  if (!node) throw new NotFoundError('No rule node with this id')
  const rule = await readableRule(db, actor, node.ruleId)
  if (node.type !== 'advice') throw new ValidationError('targetId', 'Only advice nodes have sources: link the supplement to an advice node.')
  const text = (node.headline || node.text || '').trim().slice(0, 60)
  return { ...target, ownerId: rule.set.ownerId, label: `advice ${text ? `“${text}”` : `#${node.id}`} in ${rule.name}`, set: rule.set }
}

/** A target the actor may change, checked before an upload is stored so a refused link stores nothing. */
export async function writableTarget(db: Db, actor: Actor, target: LinkTarget): Promise<ResolvedTarget> {
  const resolved = await readableTarget(db, actor, target)
  assertWritable(actor, resolved.set, target.targetType === 'adviceSet' ? 'advice set' : 'rule')
  return resolved
}

async function assertRoomFor(db: Db, target: LinkTarget): Promise<void> {
  if (target.targetType !== 'ruleNode') return
  if ((await listLinkedSupplements(db, 'ruleNode', target.targetId)).length >= MAX_NODE_SUPPLEMENTS) {
    throw new ValidationError('targetId', `An advice node can have at most ${MAX_NODE_SUPPLEMENTS} sources.`)
  }
}

/** Checks a link can be made (target writable, room left); run before storing an upload that will be linked. */
export async function prepareLink(db: Db, actor: Actor, target: LinkTarget): Promise<ResolvedTarget> {
  const resolved = await writableTarget(db, actor, target)
  await assertRoomFor(db, target)
  return resolved
}

function linkAudit(row: SupplementRow, target: Pick<ResolvedTarget, 'targetType' | 'targetId' | 'label'>) {
  return { id: row.id, name: row.name, supplementId: row.id, targetType: target.targetType, targetId: target.targetId, linkedTo: target.label }
}

/** Writes a prepared link inside `tx`; linking what is already linked changes nothing. */
export async function writeLink(tx: Db, actor: Actor, row: SupplementRow, target: ResolvedTarget): Promise<void> {
  if (await findLink(tx, { supplementId: row.id, ...target })) return
  await insertLink(tx, { supplementId: row.id, targetType: target.targetType, targetId: target.targetId, createdBy: actor.userId })
  await audit(tx, actor, { ownerId: target.ownerId, action: 'create', entityType: ENTITY_SUPPLEMENT_LINK, entityId: row.id, after: linkAudit(row, target), adviceSetId: target.set.id })
}

export async function linkSupplement(deps: Deps, actor: Actor, id: number, target: LinkTarget) {
  const row = await readableSupplement(deps.db, actor, id)
  const existing = await findLink(deps.db, { supplementId: id, ...target })
  const resolved = existing ? await writableTarget(deps.db, actor, target) : await prepareLink(deps.db, actor, target)
  await deps.db.transaction((tx) => writeLink(tx, actor, row, resolved))
  return { supplement: publicView(row), ...target, linked: true }
}

export async function unlinkSupplement(deps: Deps, actor: Actor, id: number, target: LinkTarget) {
  const row = await readableSupplement(deps.db, actor, id, { includeDeleted: true })
  const resolved = await writableTarget(deps.db, actor, target)
  const link = await findLink(deps.db, { supplementId: id, ...target })
  if (!link) throw new NotFoundError(`“${row.name}” is not linked to this ${target.targetType === 'adviceSet' ? 'advice set' : 'node'}.`)
  await deps.db.transaction(async (tx) => {
    await deleteLink(tx, link.id)
    await audit(tx, actor, { ownerId: resolved.ownerId, action: 'delete', entityType: ENTITY_SUPPLEMENT_LINK, entityId: row.id, before: linkAudit(row, resolved), adviceSetId: resolved.set.id })
  })
  return { supplement: publicView(row), ...target, linked: false }
}

/** A new link supplement linked to a target at once (the Sources panel's link form): both or neither are saved. */
export async function createLinkSupplementFor(deps: Deps, actor: Actor, input: LinkInput, target: LinkTarget): Promise<SupplementRow> {
  const resolved = await prepareLink(deps.db, actor, target)
  return deps.db.transaction(async (tx) => {
    const row = await createLinkSupplement(deps, actor, { ...input, type: supplementType(input.type, defaultTypeFor(target.targetType)) }, tx)
    await writeLink(tx, actor, row, resolved)
    return row
  })
}

/**
 * The supplements linked to a target the actor may read, in link order, with their pages. A node's are its advice's
 * sources, for every reader; a set's own are its team's (a reader of another team's public or starter set gets 404).
 */
export async function linkedTo(deps: Deps, actor: Actor, target: LinkTarget) {
  const resolved = await readableTarget(deps.db, actor, target)
  if (target.targetType === 'adviceSet') return setSupplements(deps, actor, resolved.set)
  return (await listLinkedSupplements(deps.db, target.targetType, target.targetId)).map(listedView)
}

/** A set's own supplements, the set given as the caller read it in this request (set-ref.ts): its team's only. */
export async function setSupplements(deps: Deps, actor: Actor, set: SetFacts) {
  if (!canCollaborateOnSet(actor, set)) throw new NotFoundError('No advice set with this id')
  return (await listLinkedSupplements(deps.db, 'adviceSet', set.id)).map(listedView)
}

/**
 * A node written back from a version (publishing/restore-trees.ts) gets the version's links: back to the supplements
 * that still exist, and without those the draft added since (each removal audited as an unlink, so Activity can
 * bring it back). `label` names the node in that audit row; `linkedNow`, the node's links when the caller read them
 * already (for many nodes in one query).
 */
export async function relinkSupplements(tx: Db, actor: Actor, node: { id: number; ownerId: string; label: string }, supplementIds: number[], linkedNow?: Array<SupplementRow & { linkId: number }>): Promise<void> {
  const wanted = new Set(supplementIds)
  for (const linked of linkedNow ?? await listLinkedSupplements(tx, 'ruleNode', node.id)) {
    if (wanted.delete(linked.id)) continue
    await deleteLink(tx, linked.linkId)
    await audit(tx, actor, {
      ownerId: node.ownerId, action: 'delete', entityType: ENTITY_SUPPLEMENT_LINK, entityId: linked.id,
      before: linkAudit(linked, { targetType: 'ruleNode', targetId: node.id, label: node.label }),
    })
  }
  for (const supplementId of wanted) {
    if (await findSupplement(tx, supplementId, { includeDeleted: true })) {
      await insertLink(tx, { supplementId, targetType: 'ruleNode', targetId: node.id, createdBy: actor.userId })
    }
  }
}
