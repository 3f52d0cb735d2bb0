// Accounts: sign-up, sign-in, passwords (change, reset, invitation set-up), profiles, teams.
import { randomBytes } from 'node:crypto'
import { keysetPage } from '../../db/queries/keyset-page.ts'
import type { Db } from '../../db/client.ts'
import {
  consumePasswordToken, findOwner, findPublicUser, findUsablePasswordToken, findUserByEmail, findUserById,
  insertOwner, insertPasswordToken, insertUser, listAllUsers, listOwners, listUsersOfOwner, revokePasswordTokens, updateUser,
  type PublicUser, type TeamMember, type UserRow,
} from '../../db/queries/users.ts'
import { deleteUserSessions } from '../../db/queries/sessions.ts'
import type { UserPreferences, UserRole } from '../../db/schema/index.ts'
import { audit } from '../audit/audit.ts'

export type { PublicUser, UserRow }
import { isProviderAdmin, type Actor, type Deps } from '../context.ts'
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors.ts'
import { checkPasswordRules, hashLinkToken, hashPassword, newLinkToken, verifyPassword } from './passwords.ts'
import { checkFields, checkSentFields, requireEmail, requireText, optionalText, requireOneOf } from '../validate.ts'

export const LINK_TOKEN_TTL_MS = 60 * 60 * 1000
export const ROLES: readonly UserRole[] = ['admin', 'author', 'viewer']
const ROLE_PHRASES: Record<UserRole, string> = { admin: 'an admin', author: 'an author', viewer: 'a viewer' }

/** A role as a sentence says it: "an admin", "a viewer". */
export function rolePhrase(role: UserRole): string {
  return ROLE_PHRASES[role]
}

/** The acting party for a user's own requests (and, under impersonation, the admin behind them). */
export function actorForUser(user: UserRow, impersonatorId: number | null = null): Actor {
  return { userId: user.id, ownerId: user.ownerId, role: user.role, impersonatorId }
}

export function withoutSecrets(user: UserRow) {
  const { passwordHash, ...rest } = user
  return { ...rest, hasPassword: passwordHash !== null }
}

export interface SignUpInput { name: unknown; email: unknown; password: unknown; company: unknown }

/** Signing up creates a new owner with the new user as its admin (DESIGN "Owners, roles and visibility"). */
export async function signUp(deps: Deps, input: SignUpInput): Promise<UserRow> {
  const { name, email, company, password } = await checkFields({
    name: () => requireText('name', input.name, 'Name', 120),
    email: () => requireEmail('email', input.email),
    company: () => optionalText('company', input.company, 'Organisation', 120),
    password: () => {
      const password = requireText('password', input.password, 'Password', 256, 'secret')
      checkPasswordRules(password)
      return password
    },
  })
  const teamName = company || `${name}'s team`
  const passwordHash = await hashPassword(password)
  return deps.db.transaction(async (tx) => {
    const cancelled = await emailFreeOrCancelled(tx, email)
    const ownerId = `o${randomBytes(6).toString('hex')}`
    await insertOwner(tx, { id: ownerId, name: teamName })
    // An address whose invitation was cancelled is free again: its row (which never signed in) becomes this account.
    const user = cancelled
      ? (await updateUser(tx, cancelled.id, { ownerId, name, role: 'admin', passwordHash, status: 'active' }))!
      : await insertUser(tx, { ownerId, email, name, role: 'admin', passwordHash })
    await audit(tx, actorForUser(user), { ownerId, action: 'create', entityType: 'owner', entityId: ownerId, after: { name: teamName } })
    await audit(tx, actorForUser(user), { ownerId, action: 'create', entityType: 'user', entityId: user.id, after: withoutSecrets(user) })
    return user
  })
}

/**
 * The address is free (undefined), or was only ever a cancelled invitation (that row, to reuse); otherwise a conflict
 * that says what to do instead.
 */
async function emailFreeOrCancelled(db: Db, email: string): Promise<UserRow | undefined> {
  const existing = await findUserByEmail(db, email)
  if (!existing || existing.status === 'cancelled') return existing
  if (existing.status === 'invited') {
    throw new ConflictError('email', 'This address has a pending invitation: follow the link in the invitation mail, or ask the team’s admin to send it again.')
  }
  throw new ConflictError('email', 'An account with this e-mail address already exists. Sign in, or reset its password if it is forgotten.')
}

/**
 * Returns the user only when e-mail and password both match; callers must not say which part was wrong. A deactivated
 * member with the right password is told why they cannot sign in (only they can get that far).
 */
export async function authenticate(deps: Deps, input: { email: unknown; password: unknown }): Promise<UserRow | undefined> {
  const email = typeof input.email === 'string' ? input.email.trim().toLowerCase() : ''
  const password = typeof input.password === 'string' ? input.password : ''
  const user = email ? await findUserByEmail(deps.db, email) : undefined
  const ok = await verifyPassword(user?.passwordHash ?? null, password)
  if (!ok || !user) return undefined
  if (user.status !== 'active') {
    throw new ForbiddenError(`Your account at ${await ownerName(deps, user.ownerId)} is deactivated, so you cannot sign in. Ask an admin of your team to reactivate it.`)
  }
  return user
}

/** Who may sign in and keep a session: members whose account is active (not invited, deactivated or cancelled). */
export function canSignIn(user: Pick<UserRow, 'status'>): boolean {
  return user.status === 'active'
}

export async function getCurrentUser(deps: Deps, userId: number): Promise<UserRow | undefined> {
  return findUserById(deps.db, userId)
}

/** Changing a password ends every other session of the user (the current one continues) and every mailed link. */
export async function changePassword(deps: Deps, actor: Actor, input: { current: unknown; password: unknown; confirm: unknown }, keepSid: string) {
  const user = await findUserById(deps.db, actor.userId)
  if (!user) throw new NotFoundError('User not found')
  const current = typeof input.current === 'string' ? input.current : ''
  if (!(await verifyPassword(user.passwordHash, current))) throw new ValidationError('current', 'Current password is not correct.')
  const password = await newPasswordFrom(input)
  await deps.db.transaction(async (tx) => {
    await updateUser(tx, user.id, { passwordHash: password })
    await revokePasswordTokens(tx, { userId: user.id, now: new Date() })
    await deleteUserSessions(tx, user.id, keepSid)
    await audit(tx, actor, { ownerId: user.ownerId, action: 'update', entityType: 'user', entityId: user.id, before: { password: 'set' }, after: { password: 'changed' } })
  })
}

async function newPasswordFrom(input: { password: unknown; confirm: unknown }): Promise<string> {
  const password = typeof input.password === 'string' ? input.password : ''
  checkPasswordRules(password)
  if (input.confirm !== undefined && input.confirm !== password) throw new ValidationError('confirm', 'The two passwords do not match.')
  return hashPassword(password)
}

/** Always succeeds from the caller's point of view, so the form does not reveal which addresses have accounts. */
export async function requestPasswordReset(deps: Deps, input: { email: unknown }): Promise<void> {
  const email = requireEmail('email', input.email)
  const user = await findUserByEmail(deps.db, email)
  // A deactivated member or a cancelled invitation gets no link: neither may sign in.
  if (!user || (user.status !== 'active' && user.status !== 'invited')) return
  const link = await issueLinkToken(deps.db, user.id, 'reset', deps.config.baseUrl)
  await deps.mailer.send({
    to: user.email, subject: 'Reset your Advice Studio password', link,
    text: `Hello ${user.name},\n\nFollow this link within one hour to choose a new password:\n${link}\n\nIf you did not ask for this, ignore this mail.`,
  })
}

export async function issueLinkToken(db: Db, userId: number, purpose: 'reset' | 'setup', baseUrl: string): Promise<string> {
  const { token, tokenHash } = newLinkToken()
  await insertPasswordToken(db, { userId, purpose, tokenHash, expiresAt: new Date(Date.now() + LINK_TOKEN_TTL_MS) })
  return `${baseUrl}/password/${purpose}/${token}`
}

/** Whether a mailed link can still be used (for showing the form or a clear "expired" message). */
export async function isLinkTokenUsable(deps: Deps, purpose: 'reset' | 'setup', token: string): Promise<boolean> {
  return Boolean(await findUsablePasswordToken(deps.db, { tokenHash: hashLinkToken(token), purpose, now: new Date() }))
}

/**
 * Sets the password from a mailed link (reset or invitation set-up); ends all of the user's sessions and other links, and an
 * invited member becomes active. The caller signs the user in.
 */
export async function setPasswordWithToken(deps: Deps, purpose: 'reset' | 'setup', token: string, input: { password: unknown; confirm: unknown }): Promise<UserRow> {
  const passwordHash = await newPasswordFrom(input)
  return deps.db.transaction(async (tx) => {
    const used = await consumePasswordToken(tx, { tokenHash: hashLinkToken(token), purpose, now: new Date() })
    const holder = used ? await findUserById(tx, used.userId) : undefined
    // Deactivating a member or cancelling an invitation revokes its links; this catches a link that raced with it.
    if (!holder || holder.status === 'deactivated' || holder.status === 'cancelled') {
      throw new ValidationError('token', 'This link has expired or was already used. Ask for a new one.')
    }
    const user = (await updateUser(tx, holder.id, { passwordHash, status: 'active' }))!
    await revokePasswordTokens(tx, { userId: user.id, now: new Date() })
    await deleteUserSessions(tx, user.id)
    const after = { name: user.name, password: purpose === 'reset' ? 'reset' : 'set up', ...(holder.status === 'invited' ? { status: 'active' } : {}) }
    await audit(tx, actorForUser(user), { ownerId: user.ownerId, action: 'update', entityType: 'user', entityId: user.id,
      before: holder.status === 'invited' ? { name: user.name, status: 'invited' } : { name: user.name }, after })
    return user
  })
}

/** Profiles are visible within the owner and to provider admins; to anyone else the user does not exist. */
export async function getProfile(deps: Deps, actor: Actor, userId: number): Promise<PublicUser> {
  const user = await findPublicUser(deps.db, userId)
  if (!user || (user.ownerId !== actor.ownerId && !isProviderAdmin(actor))) throw new NotFoundError('User not found')
  return user
}

/** One's own profile; a colleague's for the team's admins; anyone's for provider admins. */
export function canEditProfile(actor: Actor, profile: { id: number; ownerId: string }): boolean {
  return profile.id === actor.userId || (actor.role === 'admin' && profile.ownerId === actor.ownerId) || isProviderAdmin(actor)
}

/** A profile the actor may edit: the form is refused before it is shown, not when it is saved. */
export async function editableProfile(deps: Deps, actor: Actor, userId: number): Promise<PublicUser> {
  const profile = await getProfile(deps, actor, userId)
  if (!canEditProfile(actor, profile)) throw new ForbiddenError('You can only edit your own profile: an admin of your team edits colleagues’ profiles.')
  return profile
}

export async function updateProfile(deps: Deps, actor: Actor, userId: number, input: { name?: unknown; title?: unknown; tz?: unknown }): Promise<PublicUser> {
  const before = await editableProfile(deps, actor, userId)
  const changes = await checkSentFields<{ name: string; title: string; tz: string | null }>(input, {
    name: () => requireText('name', input.name, 'Name', 120),
    title: () => optionalText('title', input.title, 'About', 2000, 'multiline'),
    tz: () => {
      // Whose clock it is: an admin editing a colleague's profile does not choose how their pages read.
      if (userId !== actor.userId) throw new ValidationError('tz', 'Only the person whose profile this is chooses its time zone.')
      return timeZoneChoice('tz', input.tz)
    },
  })
  if (Object.keys(changes).length === 0) throw new ValidationError('name', 'Nothing to change: send name, title or tz.')
  const { tz, ...fields } = changes
  const preferences = tz === undefined ? undefined : withTimeZone(before.preferences, tz)
  await deps.db.transaction(async (tx) => {
    await updateUser(tx, userId, preferences ? { ...fields, preferences } : fields)
    await audit(tx, actor, { ownerId: before.ownerId, action: 'update', entityType: 'user', entityId: userId,
      before: { name: before.name, title: before.title, ...(preferences ? { preferences: before.preferences } : {}) },
      after: { name: fields.name ?? before.name, title: fields.title ?? before.title, ...(preferences ? { preferences } : {}) } })
  })
  return (await findPublicUser(deps.db, userId))!
}

/** The zones a person can choose from, as this runtime names them (IANA), UTC first. */
export function timeZoneNames(): string[] {
  return ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')]
}

/** A chosen time zone: '' (or nothing) clears it, so times read in UTC again; otherwise an IANA zone. */
function timeZoneChoice(field: string, raw: unknown): string | null {
  if (raw === null || raw === '') return null
  if (typeof raw !== 'string' || !isKnownTimeZone(raw)) throw new ValidationError(field, 'Time zone must be one of the listed zones, such as Europe/Paris, or “Not set”.')
  return raw
}

function withTimeZone(preferences: UserPreferences, tz: string | null): UserPreferences {
  const next = { ...preferences }
  if (tz === null) delete next.tz
  else next.tz = tz
  return next
}

/** Preferences are merged key by key; `tz` must be an IANA time zone this runtime knows. */
export async function updatePreferences(deps: Deps, actor: Actor, raw: unknown): Promise<UserPreferences> {
  let parsed: unknown = raw
  if (typeof raw === 'string') {
    try { parsed = JSON.parse(raw) } catch { throw new ValidationError('newPreferences', 'newPreferences must be a JSON object.') }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ValidationError('newPreferences', 'newPreferences must be a JSON object.')
  }
  const next: UserPreferences = {}
  const { tz } = parsed as Record<string, unknown>
  if (tz !== undefined) {
    if (typeof tz !== 'string' || !isKnownTimeZone(tz)) throw new ValidationError('newPreferences.tz', 'tz must be an IANA time zone such as Europe/Paris.')
    next.tz = tz
  }
  const user = await findUserById(deps.db, actor.userId)
  if (!user) throw new NotFoundError('User not found')
  const preferences = { ...user.preferences, ...next }
  await deps.db.transaction(async (tx) => {
    await updateUser(tx, user.id, { preferences })
    await audit(tx, actor, { ownerId: user.ownerId, action: 'update', entityType: 'user', entityId: user.id, before: { preferences: user.preferences }, after: { preferences } })
  })
  return preferences
}

function isKnownTimeZone(tz: string): boolean {
  try { new Intl.DateTimeFormat('en', { timeZone: tz }); return true } catch { return false }
}

/** Members (or invitations) the team page shows at a time; "Next" shows the following ones. */
export const TEAM_PAGE_SIZE = 100

export interface TeamPage {
  members: TeamMember[]
  /** The last member shown, when there are more after it. */
  membersNextAfter: number | null
  pending: TeamMember[]
  pendingNextAfter: number | null
  /** Whether the page starts somewhere in a list (so it links back to its start). */
  paged: boolean
}

/** The actor's team by name: members (active and deactivated) and pending invitations, a page of each. */
export async function listTeam(deps: Deps, actor: Actor, after: { members?: number; pending?: number } = {}): Promise<TeamPage> {
  const page = async (invited: boolean, afterId: number | undefined) => {
    return keysetPage(await listUsersOfOwner(deps.db, actor.ownerId, { invited, afterId, limit: TEAM_PAGE_SIZE + 1 }), TEAM_PAGE_SIZE)
  }
  const [members, pending] = await Promise.all([page(false, after.members), page(true, after.pending)])
  return {
    members: members.shown, membersNextAfter: members.nextAfter, pending: pending.shown, pendingNextAfter: pending.nextAfter,
    paged: after.members !== undefined || after.pending !== undefined,
  }
}

export async function listEveryUser(deps: Deps, actor: Actor) {
  if (!isProviderAdmin(actor)) throw new ForbiddenError('Only provider admins can list all users.')
  return listAllUsers(deps.db)
}

export async function listOwnersForAdmin(deps: Deps, actor: Actor) {
  if (!isProviderAdmin(actor)) throw new ForbiddenError('Only provider admins can list owners.')
  return listOwners(deps.db)
}


export async function ownerName(deps: Deps, ownerId: string): Promise<string> {
  return (await findOwner(deps.db, ownerId))?.name ?? ownerId
}
