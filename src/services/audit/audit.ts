// The one audit mechanism: every change writes one activity row inside the transaction of the change. Changes to
// searchable entities also leave a search index task in that transaction, applied after commit (src/search/sync.ts).
import type { Db } from '../../db/client.ts'
import { insertActivity } from '../../db/queries/activity.ts'
import { recordIndexTask } from '../../db/queries/search.ts'
import { isSearchable } from '../../search/documents.ts'
import type { AuditAction } from '../../db/schema/index.ts'
import type { Actor } from '../context.ts'

export interface AuditEntry {
  ownerId: string
  action: AuditAction
  entityType: string
  entityId: string | number
  before?: unknown
  after?: unknown
}

/** `actor` null means the server acted on its own (seeding, expiry jobs). */
export async function audit(tx: Db, actor: Actor | null, entry: AuditEntry): Promise<void> {
  await insertActivity(tx, {
    ownerId: entry.ownerId,
    actorId: actor?.userId ?? null,
    impersonatorId: actor?.impersonatorId ?? null,
    source: actor ? 'users' : 'server',
    action: entry.action,
    entityType: entry.entityType,
    entityId: String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
  })
  if (isSearchable(entry.entityType)) await recordIndexTask(tx, entry.entityType, String(entry.entityId))
}
