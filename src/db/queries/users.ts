import { and, asc, count, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { owners, passwordTokens, users, type UserPreferences, type UserRole } from '../schema/index.ts'

export type UserRow = typeof users.$inferSelect

const publicUserColumns = {
  id: users.id, ownerId: users.ownerId, email: users.email, name: users.name, title: users.title,
  role: users.role, preferences: users.preferences, createdAt: users.createdAt, updatedAt: users.updatedAt,
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
}

export async function insertUser(db: Db, p: InsertUserParams): Promise<UserRow> {
  const [row] = await db.insert(users).values(p).returning()
  return row!
}

export interface UpdateUserParams {
  name?: string
  title?: string
  role?: UserRole
  passwordHash?: string
  preferences?: UserPreferences
}

export async function updateUser(db: Db, id: number, p: UpdateUserParams): Promise<UserRow | undefined> {
  const [row] = await db.update(users).set({ ...p, updatedAt: new Date() }).where(eq(users.id, id)).returning()
  return row
}

export async function listUsersOfOwner(db: Db, ownerId: string): Promise<PublicUser[]> {
  return db.select(publicUserColumns).from(users).where(eq(users.ownerId, ownerId)).orderBy(asc(users.name), asc(users.id))
}

export async function listAllUsers(db: Db): Promise<Array<PublicUser & { ownerName: string }>> {
  return db.select({ ...publicUserColumns, ownerName: owners.name }).from(users)
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

/** The owner's admins other than `exceptUserId` (invited ones too: they can approve once they have set a password). */
export async function countOtherAdmins(db: Db, ownerId: string, exceptUserId: number | null): Promise<number> {
  const others = exceptUserId === null ? sql`true` : sql`${users.id} <> ${exceptUserId}`
  const [row] = await db.select({ n: count() }).from(users).where(and(eq(users.ownerId, ownerId), eq(users.role, 'admin'), others))
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

/** Marks every unused reset and set-up token of the user used: a link mailed before a password change dies with it. */
export async function revokePasswordTokens(db: Db, p: { userId: number; now: Date }): Promise<void> {
  await db.update(passwordTokens).set({ usedAt: p.now })
    .where(and(eq(passwordTokens.userId, p.userId), isNull(passwordTokens.usedAt)))
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
