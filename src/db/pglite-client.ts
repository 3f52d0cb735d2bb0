// The embedded database's PGlite, as both hosts open it: in the app's own thread (tests, scripts) and on a worker
// thread behind the wire protocol (embedded-server/, what `npm start` runs).
import { mkdirSync } from 'node:fs'
import type { PGlite } from '@electric-sql/pglite'

/** Two 16 MB segments: the least PostgreSQL accepts. */
const EMBEDDED_WAL_MB = 32
/**
 * PostgreSQL's buffer cache, kept in PGlite's WebAssembly memory, which is never handed back. With PGlite's default of
 * 128 MB, `npm start` held 599 MB of RSS once started on an existing data directory; with 32 MB, 499 MB (and 675 MB
 * instead of 802 on a first start). The data directory's files are in the operating system's cache as well: on the
 * PGlite scale tenant (1.1 GB), bench:scale's 35 pages were as fast with 32 MB (no page's p50 more than 0.7 ms slower,
 * most a little faster, same day).
 */
const EMBEDDED_SHARED_BUFFERS_MB = 32

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
    // The write-ahead log (embedded-checkpoints.ts): a checkpoint keeps at most max_wal_size of old segments
    // for reuse, so both bounds are set to the least PostgreSQL accepts.
    startParams: [
      ...PGlite.defaultStartParams,
      '-c', `min_wal_size=${EMBEDDED_WAL_MB}MB`, '-c', `max_wal_size=${EMBEDDED_WAL_MB}MB`,
      '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS_MB}MB`,
    ],
  })
}
