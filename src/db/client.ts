// One Drizzle type over both drivers: PGlite (embedded default) and postgres.js (DATABASE_URL).
import path from 'node:path'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import type { PGlite } from '@electric-sql/pglite'
import type postgres from 'postgres'
import * as schema from './schema/index.ts'
import { startEmbeddedUpkeep } from './embedded-upkeep.ts'
import { adoptDrizzleParsers } from './pglite-parsers.ts'
import { createPglite } from './pglite-client.ts'
import { EMBEDDED_SOCKET_PORT, startEmbeddedServer, type EmbeddedServer } from './embedded-server/host.ts'
import { preparedByDefault } from './prepared-statements.ts'

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
  /** `onQuery` hears every statement sent with its parameters (the query-plan test reads what pages ask). */
  | { kind: 'postgres'; url: string; onQuery?: (statement: string, parameters: unknown[]) => void }
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob }
  /** PGlite on a worker thread of its own, reached over the wire protocol; `onCrash` if that thread dies. */
  | { kind: 'pglite-worker'; dataDir?: string; onCrash: (reason: Error) => void }

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'postgres') return openPostgres(target.url, target.onQuery)
  if (target.kind === 'pglite-worker') return openPgliteWorker(target.dataDir, target.onCrash)
  return openPglite(target)
}

/** What the app reaches the embedded database on its worker thread with, besides drizzle. */
export interface EmbeddedServerAccess {
  /** The one connection (postgres.js), for pg-boss. */
  client: postgres.Sql
  /** LISTEN over that connection (notifications.ts says why not postgres.js's own listen()). */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>
  /** Decision records straight to the worker, which COPYs them between transactions (decision-copy.ts). */
  copyDecisionRecords: EmbeddedServer['copyDecisionRecords']
  /** Transactions open on the connection: while one is, every turn of the event loop it waits for delays it. */
  transactionsOpen(): number
}

const embeddedServers = new WeakMap<Db, EmbeddedServerAccess>()

/** Set only on the embedded database served from its worker thread (not on a transaction of it). */
export function embeddedServerOf(db: Db): EmbeddedServerAccess | undefined {
  return embeddedServers.get(db)
}

async function openPgliteWorker(dataDir: string | undefined, onCrash: (reason: Error) => void): Promise<Database> {
  const { default: postgres } = await import('postgres')
  const { drizzle } = await import('drizzle-orm/postgres-js')
  const { migrate } = await import('drizzle-orm/postgres-js/migrator')
  const server = await startEmbeddedServer(dataDir, onCrash)
  const listeners = new Map<string, Set<(payload: string) => void>>()
  // One connection: PGlite is one backend, and the bridge serves one connection at a time. Its notifications arrive
  // with its replies; postgres.js hands them to `onnotify` (an option its types leave out).
  const options: postgres.Options<Record<string, never>> & { onnotify: (channel: string, payload: string) => void } = {
    host: server.socketDir, port: EMBEDDED_SOCKET_PORT, user: 'postgres', database: 'postgres', max: 1, onnotice: () => {},
    onnotify: (channel, payload) => { for (const fn of listeners.get(channel) ?? []) fn(payload) },
  }
  const client = postgres(options)
  const prepared = preparedByDefault(client)
  const db = drizzle(prepared.client, { schema }) as unknown as Db
  embeddedServers.set(db, {
    client,
    listen: async (channel, onNotify) => {
      let fns = listeners.get(channel)
      if (!fns) {
        listeners.set(channel, fns = new Set())
        // The backend keeps listening across reconnects: the bridge's reset leaves LISTEN alone.
        await client`LISTEN ${client(channel)}`
      }
      fns.add(onNotify)
      return async () => { fns.delete(onNotify) }
    },
    copyDecisionRecords: (encoded) => server.copyDecisionRecords(encoded),
    transactionsOpen: prepared.transactionsOpen,
  })
  return {
    db,
    driver: 'pglite',
    migrate: () => migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER }),
    close: async () => {
      await client.end({ timeout: 5 })
      await server.stop()
    },
  }
}

async function openPostgres(url: string, onQuery?: (statement: string, parameters: unknown[]) => void): Promise<Database> {
  const { default: postgres } = await import('postgres')
  const { drizzle } = await import('drizzle-orm/postgres-js')
  const { migrate } = await import('drizzle-orm/postgres-js/migrator')
  // No JIT: with a big tenant's row estimates the planner's costs pass jit_above_cost on queries that then read a few
  // pages, and compiling took 800 ms of a search's 840 (bench:scale); the app's queries are all short.
  // No parallel plans, for the same reason: on the big tenant's estimates the planner gave a dictionary lookup of 19,892
  // estimated rows (0 found) two workers, whose start took 45 of its 64 ms (bench:scale, on 2 cores); the app's reads
  // are index-driven and paged, and a request's workers would only take cores from the requests beside it.
  const client = postgres(url, { max: 10, onnotice: () => {}, connection: { jit: 'off', max_parallel_workers_per_gather: '0' }, ...(onQuery ? { debug: (_connection: number, statement: string, parameters: unknown[]) => onQuery(statement, parameters) } : {}) })
  // Prepared statements (prepared-statements.ts): behind PgBouncer, that needs transaction pooling with
  // max_prepared_statements (PgBouncer 1.21 and later), or session pooling.
  const db = drizzle(preparedByDefault(client).client, { schema }) as unknown as Db
  serverDatabases.add(db)
  return {
    db,
    driver: 'postgres',
    migrate: () => migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER }),
    close: () => client.end({ timeout: 5 }),
  }
}

async function openPglite(target: { dataDir?: string; loadDataDir?: Blob }): Promise<Database> {
  const { drizzle } = await import('drizzle-orm/pglite')
  const { migrate } = await import('drizzle-orm/pglite/migrator')
  const client = await createPglite(target)
  const stopUpkeep = startEmbeddedUpkeep(client)
  const jobClient = adoptDrizzleParsers(client)
  const db = drizzle(client, { schema }) as unknown as Db
  embeddedClients.set(db, client)
  embeddedJobClients.set(db, jobClient)
  return {
    db,
    driver: 'pglite',
    migrate: async () => { await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER }) },
    close: async () => {
      stopUpkeep()
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
