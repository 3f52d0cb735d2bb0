// Who may see and change a supplement. Its owner's team reads it, everyone reads the provider's, and readers of an
// advice set read the supplements linked to its nodes (they are the set's content: its advice's sources); those linked
// to the set itself are its team's reference material (canCollaborateOnSet). Its owner's authors and admins change it.
// A token (the supplement's own random capability) opens the file without signing in: that is how the sources of
// published advice reach a partner's users.
import { timingSafeEqual } from 'node:crypto'
import type { Db } from '../../db/client.ts'
import { findSupplement, listLinkUses, type LinkUse, type SupplementRow } from '../../db/queries/supplements.ts'
import { assertCanChange, canCollaborateOnSet, canReadOwned, canReadSet, canWriteOwned } from '../accounts/visibility.ts'
import type { Actor } from '../context.ts'
import { ForbiddenError, NotFoundError } from '../errors.ts'

/** Who is asking to see a file: a signed-in user, or someone holding the supplement's token. */
export type Viewer = { actor: Actor } | { token: string }

const notFound = () => new NotFoundError('No supplement with this id')

/** Whether a link is one the actor sees: to a node of a set it reads, or to a set whose team it is in. */
export function canSeeUse(actor: Actor, use: LinkUse): boolean {
  return use.targetType === 'ruleNode' ? canReadSet(actor, use.adviceSet) : canCollaborateOnSet(actor, use.adviceSet)
}

export async function canReadSupplement(db: Db, actor: Actor, row: SupplementRow): Promise<boolean> {
  if (canReadOwned(actor, row.ownerId)) return true
  return (await listLinkUses(db, [row.id])).some((use) => (use.node?.live ?? use.adviceSet.live) && canSeeUse(actor, use))
}

export async function readableSupplement(db: Db, actor: Actor, id: number, opts: { includeDeleted?: boolean } = {}): Promise<SupplementRow> {
  const row = await findSupplement(db, id, opts)
  if (!row || !(await canReadSupplement(db, actor, row))) throw notFound()
  return row
}

/** Readable and the actor's to change; a supplement the actor cannot read is a 404, one it only reads a 403. */
export async function writableSupplement(db: Db, actor: Actor, id: number, opts: { includeDeleted?: boolean } = {}): Promise<SupplementRow> {
  const row = await readableSupplement(db, actor, id, opts)
  assertCanChange(actor, row.ownerId, 'supplement')
  return row
}

function tokenMatches(row: SupplementRow, token: string): boolean {
  const given = Buffer.from(token)
  const expected = Buffer.from(row.accessToken)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/** The supplement a viewer may open; a wrong token is the same 404 as a missing supplement. */
export async function viewableSupplement(db: Db, viewer: Viewer, id: number): Promise<SupplementRow> {
  if ('actor' in viewer) return readableSupplement(db, viewer.actor, id)
  const row = await findSupplement(db, id)
  if (!row || !tokenMatches(row, viewer.token)) throw notFound()
  return row
}
