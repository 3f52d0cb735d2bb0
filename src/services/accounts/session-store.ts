// A PostgreSQL-backed store for @fastify/session (the session plugin uses it), so the app process keeps no state
// of its own.
import type { SessionStore } from '@fastify/session'
import type { Db } from '../../db/client.ts'
import { deleteSession, findSession, upsertSession } from '../../db/queries/sessions.ts'

const DEFAULT_TTL_MS = 14 * 24 * 60 * 60 * 1000

type Callback = (err?: unknown, result?: unknown) => void

export function createSessionStore(db: Db): SessionStore {
  return {
    set(sid: string, session: unknown, callback: Callback) {
      const data = JSON.parse(JSON.stringify(session)) as Record<string, unknown>
      const expires = (session as { cookie?: { expires?: Date | string | null } }).cookie?.expires
      const expiresAt = expires ? new Date(expires) : new Date(Date.now() + DEFAULT_TTL_MS)
      const userId = typeof data.userId === 'number' ? data.userId : null
      upsertSession(db, { sid, userId, data, expiresAt }).then(() => callback(), callback)
    },
    get(sid: string, callback: Callback) {
      findSession(db, sid, new Date()).then((row) => callback(null, row?.data ?? null), callback)
    },
    destroy(sid: string, callback: Callback) {
      deleteSession(db, sid).then(() => callback(), callback)
    },
  } as SessionStore
}
