// One Drizzle type over both drivers: PGlite (embedded default) and postgres.js (DATABASE_URL).
import path from 'node:path'
import { mkdirSync } from 'node:fs'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import type { PGlite } from '@electric-sql/pglite'
import * as schema from './schema/index.ts'
import { startEmbeddedCheckpoints } from './embedded-checkpoints.ts'
import { adoptDrizzleParsers } from './pglite-parsers.ts'

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema>

export interface Database {
  db: Db
  driver: 'pglite' | 'postgres'
  migrate(): Promise<void>
  close(): Promise<void>
  /**
   * PGlite only: the whole data directory as a tarball (tests load it instead of migrating again), checkpointed first
   * so that a load has no log to replay; not compressed, which saves each load the inflating (~40 MB, read once).
   */
  dump?(): Promise<Blob>
}

/** Databases on a PostgreSQL server, which other app instances may share (PGlite is open in one process only). */
const serverDatabases = new WeakSet<Db>()

/** True when other app instances may use this database too: what each process counts alone must then be shared. */
export function isSharedDatabase(db: Db): boolean {
  return serverDatabases.has(db)
}

/** The embedded databases' PGlite clients, for what must speak to PGlite itself (pg-boss's adapter, COPY from a blob). */
const embeddedClients = new WeakMap<Db, PGlite>()

/** The PGlite client under `db` when it is the embedded database itself; undefined on PostgreSQL and in a transaction. */
export function embeddedClientOf(db: Db): PGlite | undefined {
  return embeddedClients.get(db)
}

/** The embedded client as pg-boss's adapter reads it: with PGlite's own parsers (pglite-parsers.ts). */
const embeddedJobClients = new WeakMap<Db, ReturnType<typeof adoptDrizzleParsers>>()

export function embeddedJobClientOf(db: Db): ReturnType<typeof adoptDrizzleParsers> | undefined {
  return embeddedJobClients.get(db)
}

const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, '../../migrations')

export type DatabaseTarget =
  | { kind: 'postgres'; url: string }
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob }

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return target.kind === 'postgres' ? openPostgres(target.url) : openPglite(target)
}

async function openPostgres(url: string): Promise<Database> {
  const { default: postgres } = await import('postgres')
  const { drizzle } = await import('drizzle-orm/postgres-js')
  const { migrate } = await import('drizzle-orm/postgres-js/migrator')
  const client = postgres(url, { max: 10, onnotice: () => {} })
  const db = drizzle(client, { schema }) as unknown as Db
  serverDatabases.add(db)
  return {
    db,
    driver: 'postgres',
    migrate: () => migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => client.end({ timeout: 5 }),
  }
}

/** Two 16 MB segments: the least PostgreSQL accepts. */
const EMBEDDED_WAL_MB = 32

async function openPglite(target: { dataDir?: string; loadDataDir?: Blob }): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite')
  const { drizzle } = await import('drizzle-orm/pglite')
  const { migrate } = await import('drizzle-orm/pglite/migrator')
  // Search needs pg_trgm (typo-tolerant type-ahead); PGlite only has the extensions it is created with.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
  if (target.dataDir) mkdirSync(target.dataDir, { recursive: true })
  const client = await PGlite.create({
    dataDir: target.dataDir,
    loadDataDir: target.loadDataDir,
    extensions: { pg_trgm },
    // The log lives in memory (embedded-checkpoints.ts): a checkpoint keeps at most max_wal_size of old segments
    // for reuse, so both bounds are set to the least PostgreSQL accepts.
    startParams: [...PGlite.defaultStartParams, '-c', `min_wal_size=${EMBEDDED_WAL_MB}MB`, '-c', `max_wal_size=${EMBEDDED_WAL_MB}MB`],
  })
  const stopCheckpoints = startEmbeddedCheckpoints(client)
  const jobClient = adoptDrizzleParsers(client)
  const db = drizzle(client, { schema }) as unknown as Db
  embeddedClients.set(db, client)
  embeddedJobClients.set(db, jobClient)
  return {
    db,
    driver: 'pglite',
    migrate: async () => { await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER }) },
    close: async () => {
      stopCheckpoints()
      await client.close()
    },
    dump: async () => {
      await client.exec('CHECKPOINT')
      return client.dumpDataDir('none')
    },
  }
}

/** Where the embedded database lives inside DATA_DIR. */
export function embeddedDataDir(dataDir: string): string {
  return path.join(dataDir, 'pglite')
}
