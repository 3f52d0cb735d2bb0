// pg-boss over whichever database the app runs on. PostgreSQL: pg-boss's own `pg` pool, its default and most
// tested path (postgres.js, the app's driver, refuses the BEGIN … COMMIT blocks pg-boss sends as one statement).
// Embedded in-process: pg-boss's PGlite adapter over the app's own PGlite instance — PGlite serves one connection at a
// time, so pg-boss's statements simply queue behind the app's. Embedded on a worker thread: the app's one connection to
// it (postgres-js-adapter.ts).
import { PgBoss, fromPglite, type ConstructorOptions } from 'pg-boss'
import { embeddedClientOf, embeddedJobClientOf, embeddedServerOf, type Db } from '../db/client.ts'
import { jobDatabaseOverPostgresJs } from './postgres-js-adapter.ts'

/** The schema pg-boss keeps its tables in, beside the app's. */
export const BOSS_SCHEMA = 'pgboss'

interface PostgresJsOptions { host: string[]; port: number[]; database: string; user: string; pass: string | null; ssl: unknown }

/** True on the embedded database, which one process at a time owns. */
export function isEmbedded(db: Db): boolean {
  return embeddedClientOf(db) !== undefined || embeddedServerOf(db) !== undefined
}

export function createBoss(db: Db, options: Partial<ConstructorOptions> = {}): PgBoss {
  const common = { schema: BOSS_SCHEMA, ...options }
  const embedded = embeddedJobClientOf(db)
  if (embedded) return new PgBoss({ ...common, db: fromPglite(embedded), backend: 'pglite' })
  // Embedded on its worker thread: over the app's one connection to it, the only one the bridge serves at a time.
  const served = embeddedServerOf(db)
  if (served) return new PgBoss({ ...common, db: jobDatabaseOverPostgresJs(served.client), backend: 'pglite' })
  // The app's postgres.js client already holds the parsed connection settings (tests make one database per file,
  // so they are read here rather than from the config).
  const o = (db as unknown as { $client: { options: PostgresJsOptions } }).$client.options
  return new PgBoss({
    ...common,
    host: o.host[0], port: o.port[0], database: o.database, user: o.user, password: o.pass ?? undefined,
    ssl: o.ssl ? (o.ssl as ConstructorOptions['ssl']) : undefined,
    max: 4,
  })
}
