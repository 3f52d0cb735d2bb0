import { and, asc, count, eq, gt, inArray, isNull, ne, notInArray, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { owners, passwordTokens, users, type UserPreferences, type UserRole, type UserStatus } from '../schema/index.ts'

export type UserRow = typeof users.$inferSelect

const publicUserColumns = {
  id: users.id, ownerId: users.ownerId, email: users.email, name: users.name, title: users.title,
  role: users.role, status: users.status, preferences: users.preferences, createdAt: users.createdAt, updatedAt: users.updatedAt,
  hasPassword: sql<boolean>`${users.passwordHash} is not null`,
}
export type PublicUser = Omit<UserRow, 'passwordHash'> & { hasPassword: boolean }

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1)
  return row
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1)
  return row
}

export async function findPublicUser(db: Db, id: number): Promise<PublicUser | undefined> {
  const [row] = await db.select(publicUserColumns).from(users).where(eq(users.id, id)).limit(1)
  return row
}

export interface InsertUserParams {
  ownerId: string
  email: string
  name: string
  role: UserRole
  passwordHash: string | null
  /** `active` unless said otherwise; invitations start `invited`. */
  status?: UserStatus
}

export async function insertUser(db: Db, p: InsertUserParams): Promise<UserRow> {
  const [row] = await db.insert(users).values(p).returning()
  return row!
}

export interface UpdateUserParams {
  name?: string
  title?: string
  role?: UserRole
  status?: UserStatus
  /** Only for an invitation sent again after it was cancelled, possibly by another team. */
  ownerId?: string
  passwordHash?: string
  preferences?: UserPreferences
}

export async function updateUser(db: Db, id: number, p: UpdateUserParams): Promise<UserRow | undefined> {
  const [row] = await db.update(users).set({ ...p, updatedAt: new Date() }).where(eq(users.id, id)).returning()
  return row
}

/** When the latest set-up link went out (the invitation, or its latest resend); null for people never invited. */
// Spelled out: inside a subquery drizzle writes columns without their table, and "id" would be the token's own.
const invitationSentAt = sql<Date | null>`(select max(pt.created_at) from password_tokens pt where pt.user_id = "users"."id" and pt.purpose = 'setup')`
  .mapWith(passwordTokens.createdAt)

export type TeamMember = PublicUser & { invitationSentAt: Date | null }

/** The owner's members and pending invitations (cancelled invitations are no longer part of the team). */
/**
 * A page of an owner's members by name (invited ones, or the others; never cancelled invitations), after the member
 * `afterId` in that order: keyset pages, so a team of thousands reads one page's rows (users_owner_name_idx).
 */
export async function listUsersOfOwner(db: Db, ownerId: string, p: { invited: boolean; afterId?: number; limit: number }): Promise<TeamMember[]> {
  const after = p.afterId === undefined ? undefined
    : sql`(${users.name}, ${users.id}) > (select u.name, u.id from ${users} u where u.id = ${p.afterId})`
  return db.select({ ...publicUserColumns, invitationSentAt }).from(users)
    .where(and(eq(users.ownerId, ownerId), p.invited ? eq(users.status, 'invited') : notInArray(users.status, ['invited', 'cancelled']), after))
    .orderBy(asc(users.name), asc(users.id)).limit(p.limit)
}

/** Locks the user's row for the rest of the transaction (two admins acting on one member at once go one after the other). */
export async function lockUser(db: Db, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).for('update').limit(1)
  return row
}

/**
 * The ids of the owner's active admins, their rows locked until the transaction ends: two admins demoting each other
 * at once cannot both pass the "another admin remains" check.
 */
export async function lockActiveAdmins(db: Db, ownerId: string): Promise<number[]> {
  const rows = await db.select({ id: users.id }).from(users)
    .where(and(eq(users.ownerId, ownerId), eq(users.role, 'admin'), eq(users.status, 'active'))).orderBy(asc(users.id)).for('update')
  return rows.map((r) => r.id)
}

export async function findUserNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map()
  const rows = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids))
  return new Map(rows.map((r) => [r.id, r.name]))
}

export async function listAllUsers(db: Db): Promise<Array<TeamMember & { ownerName: string }>> {
  return db.select({ ...publicUserColumns, invitationSentAt, ownerName: owners.name }).from(users)
    .innerJoin(owners, eq(owners.id, users.ownerId))
    .orderBy(asc(owners.name), asc(users.name), asc(users.id))
}

export async function insertOwner(db: Db, p: { id: string; name: string }): Promise<void> {
  await db.insert(owners).values(p)
}

export async function findOwner(db: Db, id: string) {
  const [row] = await db.select().from(owners).where(eq(owners.id, id)).limit(1)
  return row
}

export type OwnerRow = typeof owners.$inferSelect

export async function updateOwnerSelfApproval(db: Db, id: string, p: { selfApprovalAllowed: boolean; selfApprovalChangedBy: number; selfApprovalChangedAt: Date }): Promise<OwnerRow> {
  const [row] = await db.update(owners).set(p).where(eq(owners.id, id)).returning()
  return row!
}

/**
 * The owner's admins other than `exceptUserId` (invited ones too: they can approve once they have set a password;
 * deactivated ones and cancelled invitations cannot).
 */
export async function countOtherAdmins(db: Db, ownerId: string, exceptUserId: number | null): Promise<number> {
  const others = exceptUserId === null ? sql`true` : sql`${users.id} <> ${exceptUserId}`
  const [row] = await db.select({ n: count() }).from(users)
    .where(and(eq(users.ownerId, ownerId), eq(users.role, 'admin'), inArray(users.status, ['active', 'invited']), others))
  return row?.n ?? 0
}

export async function listOwners(db: Db) {
  return db.select().from(owners).orderBy(asc(owners.name))
}

export interface InsertPasswordTokenParams {
  userId: number
  purpose: 'reset' | 'setup'
  tokenHash: string
  expiresAt: Date
}

export async function insertPasswordToken(db: Db, p: InsertPasswordTokenParams): Promise<void> {
  await db.insert(passwordTokens).values(p)
}

/** Marks the token used and returns it, only if it is unused, unexpired and of the purpose asked. Single use by construction. */
export async function consumePasswordToken(db: Db, p: { tokenHash: string; purpose: 'reset' | 'setup'; now: Date }) {
  const [row] = await db.update(passwordTokens).set({ usedAt: p.now })
    .where(and(eq(passwordTokens.tokenHash, p.tokenHash), eq(passwordTokens.purpose, p.purpose),
      isNull(passwordTokens.usedAt), gt(passwordTokens.expiresAt, p.now)))
    .returning()
  return row
}

/**
 * Marks every unused link of the user used (of one purpose, or all): a link mailed before a password change dies with
 * it, an invitation sent again replaces the old one, a deactivated member keeps none.
 */
export async function revokePasswordTokens(db: Db, p: { userId: number; now: Date; purpose?: 'reset' | 'setup' }): Promise<void> {
  await db.update(passwordTokens).set({ usedAt: p.now })
    .where(and(eq(passwordTokens.userId, p.userId), isNull(passwordTokens.usedAt), p.purpose ? eq(passwordTokens.purpose, p.purpose) : undefined))
}

export async function findUsablePasswordToken(db: Db, p: { tokenHash: string; purpose: 'reset' | 'setup'; now: Date }) {
  const [row] = await db.select().from(passwordTokens)
    .where(and(eq(passwordTokens.tokenHash, p.tokenHash), eq(passwordTokens.purpose, p.purpose),
      isNull(passwordTokens.usedAt), gt(passwordTokens.expiresAt, p.now)))
    .limit(1)
  return row
}

export async function countUsers(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users)
  return row?.n ?? 0
}
