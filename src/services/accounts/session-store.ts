// A PostgreSQL-backed store for @fastify/session (the session plugin uses it), so the app process keeps no state
// of its own.
import type { SessionStore } from '@fastify/session'
import type { Db } from '../../db/client.ts'
import { deleteSession, findSessionWithUser, upsertSession } from '../../db/queries/sessions.ts'
import type { UserRow } from '../../db/queries/users.ts'

const DEFAULT_TTL_MS = 14 * 24 * 60 * 60 * 1000
/** Users handed over at once never pile up; this only bounds those of sessions that ended before their hook ran. */
const MAX_HANDED_OVER = 1_000

type Callback = (err?: unknown, result?: unknown) => void

/**
 * The user a session was read with, from the store's read to the request's next hook (plugins/session.ts), keyed by
 * session id: the store's interface returns only the session's data, and the auth hook would otherwise read the user
 * again in a round trip of its own.
 */
export class SessionUsers {
  private readonly bySid = new Map<string, UserRow>()

  put(sid: string, user: UserRow): void {
    if (this.bySid.size >= MAX_HANDED_OVER) this.bySid.clear()
    this.bySid.set(sid, user)
  }

  take(sid: string): UserRow | undefined {
    const user = this.bySid.get(sid)
    if (user !== undefined) this.bySid.delete(sid)
    return user
  }
}

export function createSessionStore(db: Db, users: SessionUsers): SessionStore {
  return {
    set(sid: string, session: unknown, callback: Callback) {
      const data = JSON.parse(JSON.stringify(session)) as Record<string, unknown>
      const expires = (session as { cookie?: { expires?: Date | string | null } }).cookie?.expires
      const expiresAt = expires ? new Date(expires) : new Date(Date.now() + DEFAULT_TTL_MS)
      const userId = typeof data.userId === 'number' ? data.userId : null
      upsertSession(db, { sid, userId, data, expiresAt }).then(() => callback(), callback)
    },
    get(sid: string, callback: Callback) {
      findSessionWithUser(db, sid, new Date()).then((found) => {
        if (found?.user) users.put(sid, found.user)
        callback(null, found?.data ?? null)
      }, callback)
    },
    destroy(sid: string, callback: Callback) {
      deleteSession(db, sid).then(() => callback(), callback)
    },
  } as SessionStore
}
