// The embedded database's PGlite, as both hosts open it: in the app's own thread (tests, scripts) and on a worker
// thread behind the wire protocol (embedded-server/, what `npm start` runs).
import { mkdirSync } from 'node:fs'
import type { PGlite } from '@electric-sql/pglite'

/** Two 16 MB segments: the least PostgreSQL accepts. */
const EMBEDDED_WAL_MB = 32

export async function createPglite(target: { dataDir?: string; loadDataDir?: Blob }): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite')
  // Search needs pg_trgm (typo-tolerant type-ahead) and btree_gin (the newest documents first, in the full-text
  // index); PGlite only has the extensions it is created with.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
  const { btree_gin } = await import('@electric-sql/pglite/contrib/btree_gin')
  if (target.dataDir) mkdirSync(target.dataDir, { recursive: true })
  return PGlite.create({
    dataDir: target.dataDir,
    loadDataDir: target.loadDataDir,
    extensions: { pg_trgm, btree_gin },
    // The log lives in memory (embedded-checkpoints.ts): a checkpoint keeps at most max_wal_size of old segments
    // for reuse, so both bounds are set to the least PostgreSQL accepts.
    startParams: [...PGlite.defaultStartParams, '-c', `min_wal_size=${EMBEDDED_WAL_MB}MB`, '-c', `max_wal_size=${EMBEDDED_WAL_MB}MB`],
  })
}
