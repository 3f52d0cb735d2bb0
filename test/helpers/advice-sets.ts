// Advice-set test data straight through the query layer (no audit rows, so tests count only what they cause).
import type { Db } from '../../src/db/client.ts'
import { insertAdviceSet } from '../../src/db/queries/advice-sets.ts'

export async function createAdviceSet(db: Db, opts: { ownerId: string; name?: string; isPublic?: boolean; isStarter?: boolean; categoryId?: number | null }) {
  return insertAdviceSet(db, {
    ownerId: opts.ownerId, name: opts.name ?? `Set ${Math.random().toString(36).slice(2, 8)}`, nameAlt: '', description: '',
    categoryId: opts.categoryId ?? null, isPublic: opts.isPublic ?? false, isStarter: opts.isStarter ?? false, createdBy: null,
  })
}
