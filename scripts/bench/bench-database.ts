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

export async function openBenchDatabase(name: string): Promise<BenchDatabase> {
  const url = process.env.BENCH_DATABASE_URL
  if (!url) {
    // As `npm start` runs it, PGlite on a thread of its own; BENCH_PGLITE=in-process for the app's own thread (as tests
    // and the releases before run it), to compare.
    const inProcess = process.env.BENCH_PGLITE === 'in-process'
    const database = await openDatabase(inProcess ? { kind: 'pglite' } : { kind: 'pglite-worker', onCrash: (reason) => { throw reason } })
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
