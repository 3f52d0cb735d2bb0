// The database a bench runs on: embedded PGlite by default, or with BENCH_DATABASE_URL a PostgreSQL database of its
// own, made beside the one named and dropped after (so a bench never touches data it did not make).
import postgres from 'postgres'
import { openDatabase, type Database } from '../../src/db/client.ts'
import { dropDatabase } from '../../test/helpers/drop-database.ts'

export interface BenchDatabase {
  database: Database
  /** "PGlite" or "PostgreSQL", for the report's first line. */
  driver: string
  /** Closes the database and, on PostgreSQL, drops it. */
  close(): Promise<void>
}

/**
 * `options.dataDir`: PGlite keeps its data in files there, as `npm start` does in DATA_DIR, instead of in memory, where
 * every row written stays in the process's RSS (a bench that measures memory needs it).
 */
export async function openBenchDatabase(name: string, options: { dataDir?: string } = {}): Promise<BenchDatabase> {
  const url = process.env.BENCH_DATABASE_URL
  if (!url) {
    // As `npm start` runs it, PGlite on a thread of its own; BENCH_PGLITE=in-process for the app's own thread (as tests
    // and the releases before run it), to compare.
    const inProcess = process.env.BENCH_PGLITE === 'in-process'
    const { dataDir } = options
    const database = await openDatabase(inProcess ? { kind: 'pglite', dataDir } : { kind: 'pglite-worker', dataDir, onCrash: (reason) => { throw reason } })
    await database.migrate()
    return { database, driver: inProcess ? 'PGlite (in-process)' : 'PGlite', close: () => database.close() }
  }
  const server = postgres(url, { max: 1, onnotice: () => {} })
  const dbName = `advice_bench_${name}_${process.pid}`
  await server.unsafe(`CREATE DATABASE ${dbName}`)
  const database = await openDatabase({ kind: 'postgres', url: Object.assign(new URL(url), { pathname: `/${dbName}` }).toString() })
  await database.migrate()
  return {
    database, driver: 'PostgreSQL',
    close: async () => {
      await database.close()
      await dropDatabase(server, dbName)
      await server.end()
    },
  }
}
