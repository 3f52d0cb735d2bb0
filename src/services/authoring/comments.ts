// Comments on rule nodes. They are the set's team's conversation (canCollaborateOnSet): its readers read them, its
// writers add them; a reader of another team's public or starter set does not see that any exist (404). A comment is
// changed or deleted by its author (or an admin of the owner). Deleted comments can be restored; every write is audited.
import type { Db } from '../../db/client.ts'
import { countComments, findComment, insertComment, listComments, updateComment as updateCommentRow, type CommentRow } from '../../db/queries/comments.ts'
import { findNode } from '../../db/queries/rule-nodes.ts'
import { audit } from '../audit/audit.ts'
import { isProviderAdmin, type Actor, type Deps } from '../context.ts'
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.ts'
import { readableRule } from './rules.ts'
import { requireText } from '../validate.ts'
import { assertWritable, canCollaborateOnSet } from '../accounts/visibility.ts'

export const ENTITY_COMMENT = 'comment'

function snapshot(c: CommentRow) {
  return { id: c.id, name: c.body.slice(0, 80), ruleNodeId: c.ruleNodeId, parentId: c.ruleNodeId, userId: c.userId, body: c.body, deleted: c.deletedAt !== null }
}

async function nodeContext(db: Db, actor: Actor, ruleNodeId: number) {
  const node = await findNode(db, ruleNodeId)
  if (!node) throw new NotFoundError('No rule node with this id')
  const rule = await readableRule(db, actor, node.ruleId)
  if (!canCollaborateOnSet(actor, rule.set)) throw new NotFoundError('No rule node with this id')
  return { node, rule }
}

async function commentOf(db: Db, ruleNodeId: number, id: number, opts: { includeDeleted?: boolean } = {}): Promise<CommentRow> {
  const comment = await findComment(db, id, opts)
  if (!comment || comment.ruleNodeId !== ruleNodeId) throw new NotFoundError('No comment with this id on this node')
  return comment
}

/**
 * Who may edit or delete a comment: its author, and for moderation an admin of the set's team or a provider admin
 * (only members of the team and provider admins reach a comment at all: nodeContext).
 */
function mayChangeComment(actor: Actor, comment: Pick<CommentRow, 'userId'>): boolean {
  return comment.userId === actor.userId || actor.role === 'admin' || isProviderAdmin(actor)
}

function assertOwnComment(actor: Actor, comment: CommentRow): void {
  if (mayChangeComment(actor, comment)) return
  throw new ForbiddenError('Only its author or an admin of the team can change this comment.')
}

export async function listNodeComments(deps: Deps, actor: Actor, ruleNodeId: number) {
  await nodeContext(deps.db, actor, ruleNodeId)
  return (await listComments(deps.db, ruleNodeId)).map((r) => ({ ...r.comment, authorName: r.authorName, canEdit: mayChangeComment(actor, r.comment) }))
}

export async function countNodeComments(deps: Deps, actor: Actor, ruleNodeId: number) {
  await nodeContext(deps.db, actor, ruleNodeId)
  return { count: await countComments(deps.db, ruleNodeId) }
}

export async function getComment(deps: Deps, actor: Actor, ruleNodeId: number, id: number) {
  await nodeContext(deps.db, actor, ruleNodeId)
  return commentOf(deps.db, ruleNodeId, id)
}

export async function addComment(deps: Deps, actor: Actor, ruleNodeId: number, input: { body?: unknown }): Promise<CommentRow> {
  const { rule } = await nodeContext(deps.db, actor, ruleNodeId)
  assertWritable(actor, rule.set, 'rule')
  const body = requireText('body', input.body, 'body: the comment', 5000, 'multiline')
  return deps.db.transaction(async (tx) => {
    const comment = await insertComment(tx, { ruleNodeId, userId: actor.userId, body })
    await audit(tx, actor, { ownerId: rule.set.ownerId, action: 'create', entityType: ENTITY_COMMENT, entityId: comment.id, after: snapshot(comment) })
    return comment
  })
}

export async function editComment(deps: Deps, actor: Actor, ruleNodeId: number, id: number, input: { body?: unknown }): Promise<CommentRow> {
  const { rule } = await nodeContext(deps.db, actor, ruleNodeId)
  assertWritable(actor, rule.set, 'rule')
  const comment = await commentOf(deps.db, ruleNodeId, id)
  assertOwnComment(actor, comment)
  const body = requireText('body', input.body, 'body: the comment', 5000, 'multiline')
  if (body === comment.body) return comment
  return deps.db.transaction(async (tx) => {
    const updated = await updateCommentRow(tx, id, { body })
    await audit(tx, actor, { ownerId: rule.set.ownerId, action: 'update', entityType: ENTITY_COMMENT, entityId: id, before: snapshot(comment), after: snapshot(updated) })
    return updated
  })
}

export async function deleteComment(deps: Deps, actor: Actor, ruleNodeId: number, id: number): Promise<void> {
  const { rule } = await nodeContext(deps.db, actor, ruleNodeId)
  assertWritable(actor, rule.set, 'rule')
  const comment = await commentOf(deps.db, ruleNodeId, id)
  assertOwnComment(actor, comment)
  await deps.db.transaction(async (tx) => {
    const deleted = await updateCommentRow(tx, id, { deletedAt: new Date() })
    await audit(tx, actor, { ownerId: rule.set.ownerId, action: 'delete', entityType: ENTITY_COMMENT, entityId: id, before: snapshot(comment), after: snapshot(deleted) })
  })
}

export async function restoreComment(deps: Deps, actor: Actor, ruleNodeId: number, id: number): Promise<CommentRow> {
  const { rule } = await nodeContext(deps.db, actor, ruleNodeId)
  assertWritable(actor, rule.set, 'rule')
  const comment = await commentOf(deps.db, ruleNodeId, id, { includeDeleted: true })
  assertOwnComment(actor, comment)
  if (!comment.deletedAt) throw new ValidationError('id', 'This comment is not deleted.')
  return deps.db.transaction(async (tx) => {
    const restored = await updateCommentRow(tx, id, { deletedAt: null })
    await audit(tx, actor, { ownerId: rule.set.ownerId, action: 'restore', entityType: ENTITY_COMMENT, entityId: id, before: snapshot(comment), after: snapshot(restored) })
    return restored
  })
}

// Restoring from the activity log ------------------------------------------------------------------------------------

export type CommentSnapshot = ReturnType<typeof snapshot>

/** Puts a comment back as a snapshot describes it (its text, deleted or not); null (undoing it) deletes it. One `restore` row. */
export async function restoreCommentSnapshot(deps: Deps, actor: Actor, id: number, target: CommentSnapshot | null): Promise<CommentRow> {
  const comment = await findComment(deps.db, id, { includeDeleted: true })
  if (!comment) throw new NotFoundError('No comment with this id')
  if (!(await findNode(deps.db, comment.ruleNodeId))) throw new ValidationError('ruleNodeId', 'Its rule node is deleted: recover the node first.')
  const { rule } = await nodeContext(deps.db, actor, comment.ruleNodeId)
  assertWritable(actor, rule.set, 'rule')
  assertOwnComment(actor, comment)
  const deleteIt = target === null || target.deleted
  if (deleteIt && comment.deletedAt) throw new ValidationError('id', 'This comment is already deleted.')
  const body = deleteIt ? comment.body : requireText('body', target!.body, 'body: the comment', 5000, 'multiline')
  return deps.db.transaction(async (tx) => {
    const restored = await updateCommentRow(tx, id, { body, deletedAt: deleteIt ? new Date() : null })
    await audit(tx, actor, { ownerId: rule.set.ownerId, action: 'restore', entityType: ENTITY_COMMENT, entityId: id, before: snapshot(comment), after: snapshot(restored) })
    return restored
  })
}
