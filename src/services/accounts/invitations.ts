// Invitations: an admin invites someone to their team (provider admins to any team); the mail names the team and who
// invited, and carries a one-hour set-up link. A pending invitation can be sent again (a new link; the old ones stop
// working) or cancelled (the person is marked `cancelled`, their links revoked). Inviting an address again whose
// invitation is pending in the same team, or was cancelled, reuses its row instead of answering "already exists".
import type { Db } from '../../db/client.ts'
import {
  findOwner, findPublicUser, findUserByEmail, findUserById, insertUser, revokePasswordTokens, updateUser, type PublicUser, type UserRow,
} from '../../db/queries/users.ts'
import { audit } from '../audit/audit.ts'
import { isProviderAdmin, type Actor, type Deps } from '../context.ts'
import { ConflictError, ForbiddenError, ValidationError } from '../errors.ts'
import { requireEmail, requireOneOf, requireText } from '../validate.ts'
import { ENTITY_USER, manageableMember, statusChange } from './members.ts'
import { issueLinkToken, ownerName, rolePhrase, ROLES, withoutSecrets } from './users.ts'

export interface InviteInput { email: unknown; name: unknown; role: unknown; ownerId?: unknown }

/** Admins invite team members to their own owner; provider admins may place a user in any owner. */
export async function inviteUser(deps: Deps, actor: Actor, input: InviteInput): Promise<PublicUser> {
  if (actor.role !== 'admin') throw new ForbiddenError('Only an admin of the team invites people to it: ask one of your team’s admins.')
  const email = requireEmail('email', input.email)
  const name = requireText('name', input.name, 'Name', 120)
  const role = requireOneOf('role', input.role, ROLES, 'Role')
  let ownerId = actor.ownerId
  if (input.ownerId !== undefined && input.ownerId !== '' && input.ownerId !== actor.ownerId) {
    if (!isProviderAdmin(actor)) throw new ForbiddenError('You can only invite people to your own team.')
    ownerId = requireText('ownerId', input.ownerId, 'Owner', 64)
    if (!(await findOwner(deps.db, ownerId))) throw new ValidationError('ownerId', 'Owner does not exist.')
  }
  const { user, link } = await deps.db.transaction(async (tx) => {
    const existing = await reinvitable(tx, email, ownerId)
    if (!existing) {
      const user = await insertUser(tx, { ownerId, email, name, role, passwordHash: null, status: 'invited' })
      await audit(tx, actor, { ownerId, action: 'create', entityType: ENTITY_USER, entityId: user.id, after: withoutSecrets(user) })
      return { user, link: await issueLinkToken(tx, user.id, 'setup', deps.config.baseUrl) }
    }
    await revokePasswordTokens(tx, { userId: existing.id, now: new Date() })
    const user = (await updateUser(tx, existing.id, { ownerId, name, role, status: 'invited' }))!
    await audit(tx, actor, { ownerId, action: 'update', entityType: ENTITY_USER, entityId: user.id,
      before: { name: existing.name, role: existing.role, status: existing.status }, after: { name, role, status: 'invited', invitation: 'sent again' } })
    return { user, link: await issueLinkToken(tx, user.id, 'setup', deps.config.baseUrl) }
  })
  await mailInvitation(deps, actor, user, link)
  return (await findPublicUser(deps.db, user.id))!
}

/**
 * The row an invitation to `email` may reuse: a cancelled invitation (any team), or one still pending in this team.
 * Anything else is a conflict that says what to do instead.
 */
async function reinvitable(db: Db, email: string, ownerId: string): Promise<UserRow | undefined> {
  const existing = await findUserByEmail(db, email)
  if (!existing || existing.status === 'cancelled') return existing
  if (existing.ownerId === ownerId) {
    if (existing.status === 'invited') return existing
    if (existing.status === 'deactivated') throw new ConflictError('email', `${existing.name} is a deactivated member of this team: reactivate them on the team page instead.`)
    throw new ConflictError('email', `${existing.name} is already a member of this team.`)
  }
  if (existing.status === 'invited') throw new ConflictError('email', 'This address has a pending invitation from another team. It can join yours once that invitation is cancelled.')
  // Which team is not said: the inviting admin has no business knowing.
  throw new ConflictError('email', 'An account with this e-mail address already exists in another team, and an address belongs to one team only. Invite another address.')
}

/** A new set-up link for a pending invitation; the links sent before stop working. */
export async function resendInvitation(deps: Deps, actor: Actor, userId: number): Promise<PublicUser> {
  const member = await manageableMember(deps.db, actor, userId)
  if (member.status !== 'invited') throw new ConflictError('id', notPendingMessage(member))
  const link = await deps.db.transaction(async (tx) => {
    await revokePasswordTokens(tx, { userId: member.id, now: new Date(), purpose: 'setup' })
    await audit(tx, actor, { ownerId: member.ownerId, action: 'update', entityType: ENTITY_USER, entityId: member.id,
      before: { name: member.name }, after: { name: member.name, invitation: 'sent again' } })
    return issueLinkToken(tx, member.id, 'setup', deps.config.baseUrl)
  })
  await mailInvitation(deps, actor, member, link)
  return (await findPublicUser(deps.db, member.id))!
}

/** Withdraws a pending invitation: its links stop working and the person leaves the team's list. */
export async function cancelInvitation(deps: Deps, actor: Actor, userId: number): Promise<PublicUser> {
  const member = await manageableMember(deps.db, actor, userId)
  if (member.status !== 'invited') throw new ConflictError('id', notPendingMessage(member))
  await deps.db.transaction(async (tx) => {
    await updateUser(tx, member.id, { status: 'cancelled' })
    await revokePasswordTokens(tx, { userId: member.id, now: new Date() })
    const change = statusChange('invited', 'cancelled')
    await audit(tx, actor, { ownerId: member.ownerId, action: 'update', entityType: ENTITY_USER, entityId: member.id,
      before: { name: member.name, ...change.before }, after: { name: member.name, ...change.after } })
  })
  return (await findPublicUser(deps.db, member.id))!
}

function notPendingMessage(member: UserRow): string {
  if (member.status === 'cancelled') return `The invitation to ${member.name} was cancelled. Invite them again to add them to the team.`
  return `${member.name} has already accepted the invitation: there is nothing to send or cancel.`
}

/** The invitation mail names the team, who invited, the role, and what to do when the link has expired. */
async function mailInvitation(deps: Deps, actor: Actor, user: UserRow, link: string): Promise<void> {
  const inviter = (await findUserById(deps.db, actor.userId))?.name ?? 'An admin'
  const team = await ownerName(deps, user.ownerId)
  await deps.mailer.send({
    to: user.email, subject: `${inviter} invited you to ${team} on Advice Studio`, link,
    text: `Hello ${user.name},\n\n${inviter} invited you to join ${team} on Advice Studio as ${rolePhrase(user.role)}.\n\n`
      + `Follow this link within one hour to choose your password; you are signed in as soon as it is saved:\n${link}\n\n`
      + `If the link has expired, ask ${inviter} to send the invitation again.`,
  })
}
