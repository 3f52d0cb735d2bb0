import { and, eq, lt, ne, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { sessions } from '../schema/index.ts'

export async function findSession(db: Db, sid: string, now: Date) {
  const [row] = await db.select().from(sessions).where(eq(sessions.sid, sid)).limit(1)
  return row && row.expiresAt > now ? row : undefined
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
