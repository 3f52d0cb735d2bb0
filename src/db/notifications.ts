// LISTEN on whichever database is underneath: PGlite in-process and postgres.js each have a listen() of their own.
// The embedded database on its worker thread has one connection, and postgres.js's listen() would open a second, which
// the bridge serves only once the first has closed: there the app's connection itself LISTENs (client.ts), and
// notifications reach it with the replies to its queries, once the transaction that sent them has committed.
import type { Db } from './client.ts'
import { embeddedServerOf } from './client.ts'

export type Unlisten = () => Promise<void>

/** Calls `onNotify` with each notification's payload on `channel` until unlistened; null when the driver cannot listen. */
export async function listenOn(db: Db, channel: string, onNotify: (payload: string) => void): Promise<Unlisten | null> {
  const served = embeddedServerOf(db)
  if (served) return served.listen(channel, onNotify)
  const client = (db as unknown as { $client?: { listen?: (channel: string, fn: (payload: string) => void) => Promise<unknown> } }).$client
  if (typeof client?.listen !== 'function') return null
  const handle = await client.listen(channel, (payload) => onNotify(String(payload)))
  if (typeof handle === 'function') return handle as Unlisten
  const unlisten = (handle as { unlisten?: Unlisten }).unlisten
  return unlisten ? () => unlisten.call(handle) : null
}
