// Tells whoever caches served versions (the Advice API's compiled sets, the embed) that a set's served version may
// have changed: in-process right after the change commits, and to other app instances through PostgreSQL NOTIFY.
import { randomUUID } from 'node:crypto'
import type { Db } from '../../db/client.ts'
import { listenOn, type Unlisten } from '../../db/notifications.ts'
import { notifyVersionChanged, VERSION_CHANGED_CHANNEL } from '../../db/queries/versions.ts'

type Listener = (adviceSetId: number) => void

const listeners = new Set<Listener>()
/** Names this process in its notifications, so it does not hear its own changes twice. */
const INSTANCE = randomUUID()

export function onServedVersionChange(listener: Listener): () => void {
  listeners.add(listener)
  return () => { listeners.delete(listener) }
}

function fire(adviceSetId: number): void {
  for (const listener of listeners) {
    try {
      listener(adviceSetId)
    } catch {
      // One failing listener must not keep the others from hearing about the change.
    }
  }
}

/** Inside the change's transaction: other instances hear about it once it commits. */
export async function announceVersionChange(tx: Db, adviceSetId: number): Promise<void> {
  await notifyVersionChanged(tx, `${INSTANCE}:${adviceSetId}`)
}

/** After the change's transaction committed: this process's listeners. */
export function versionChanged(adviceSetId: number): void {
  fire(adviceSetId)
}

/** LISTENs through whichever driver is underneath; null when it cannot listen. */
export function listenForVersionChanges(db: Db): Promise<Unlisten | null> {
  return listenOn(db, VERSION_CHANGED_CHANNEL, (payload) => {
    const [instance, id] = payload.split(':')
    if (instance !== INSTANCE && id && /^\d+$/.test(id)) fire(Number(id))
  })
}
