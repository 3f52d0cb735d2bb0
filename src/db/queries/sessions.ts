import { and, eq, lt, ne, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { sessions, users } from '../schema/index.ts'
import type { UserRow } from './users.ts'

/**
 * A live session and the user it was last saved for, in one statement: every signed-in request reads both, and on a
 * loaded server each round trip waits its turn (bench:soak).
 */
export async function findSessionWithUser(db: Db, sid: string, now: Date): Promise<{ data: Record<string, unknown>; user: UserRow | null } | undefined> {
  const [row] = await db.select({ data: sessions.data, expiresAt: sessions.expiresAt, user: users }).from(sessions)
    .leftJoin(users, eq(users.id, sessions.userId)).where(eq(sessions.sid, sid)).limit(1)
  return row && row.expiresAt > now ? { data: row.data, user: row.user } : undefined
}

export async function upsertSession(db: Db, p: { sid: string; userId: number | null; data: Record<string, unknown>; expiresAt: Date }) {
  await db.insert(sessions).values(p).onConflictDoUpdate({
    target: sessions.sid,
    set: { userId: p.userId, data: p.data, expiresAt: p.expiresAt },
  })
}

export async function deleteSession(db: Db, sid: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.sid, sid))
}

/** Ends every session of a user, optionally keeping one (the one that changed the password). */
export async function deleteUserSessions(db: Db, userId: number, exceptSid?: string): Promise<void> {
  await db.delete(sessions).where(exceptSid
    ? and(eq(sessions.userId, userId), ne(sessions.sid, exceptSid))
    : eq(sessions.userId, userId))
}

/** Ends the sessions in which this user impersonates someone (their own sessions carry their id as user_id). */
export async function deleteSessionsImpersonatedBy(db: Db, impersonatorId: number): Promise<void> {
  await db.delete(sessions).where(sql`${sessions.data}->>'impersonatorId' = ${String(impersonatorId)}`)
}

export async function deleteExpiredSessions(db: Db, now: Date): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now))
}
