// A database as an earlier release left it, to upgrade in place: the migrations folder with its journal cut before a
// migration, run on an empty database of the test's driver; the test then fills it and runs every migration.
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { openDatabase, type Database } from '../../src/db/client.ts'
import { testDriver } from './database.ts'
import { dropDatabase } from './drop-database.ts'

// realpath: `npm test` runs a compiled mirror whose migrations/ is a link to the repository's (scripts/build-tests.ts).
const MIGRATIONS = realpathSync(path.resolve(import.meta.dirname, '../../migrations'))

/** The migrations folder as it was before the upgrade: the same files, the journal cut before it. */
function migrationsBefore(tag: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'advice-studio-migrations-'))
  cpSync(MIGRATIONS, dir, { recursive: true })
  const journalPath = path.join(dir, 'meta', '_journal.json')
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ idx: number; tag: string }> }
  const cut = journal.entries.findIndex((e) => e.tag === tag)
  if (cut < 0) throw new Error(`No migration ${tag}`)
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }))
  return dir
}

/** An empty database of the test's driver, with a way to run a migrations folder on it. */
async function emptyDatabase(): Promise<{ database: Database; migrateFrom(folder: string): Promise<void>; close(): Promise<void> }> {
  if (testDriver() === 'postgres') {
    const url = process.env.TEST_DATABASE_URL
    if (!url) throw new Error('TEST_DRIVER=postgres needs TEST_DATABASE_URL')
    const name = `advice_studio_upgrade_${randomBytes(5).toString('hex')}`
    const admin = postgres(url, { max: 1, onnotice: () => {} })
    await admin.unsafe(`CREATE DATABASE ${name}`)
    const target = new URL(url)
    target.pathname = `/${name}`
    const database = await openDatabase({ kind: 'postgres', url: target.toString() })
    const { migrate } = await import('drizzle-orm/postgres-js/migrator')
    return {
      database,
      migrateFrom: (folder) => migrate(database.db as unknown as Parameters<typeof migrate>[0], { migrationsFolder: folder }),
      close: async () => { await database.close(); await dropDatabase(admin, name); await admin.end() },
    }
  }
  const database = await openDatabase({ kind: 'pglite' })
  const { migrate } = await import('drizzle-orm/pglite/migrator')
  return {
    database,
    migrateFrom: (folder) => migrate(database.db as unknown as Parameters<typeof migrate>[0], { migrationsFolder: folder }),
    close: () => database.close(),
  }
}

/** The database before migration `tag`, with a teardown for both it and its cut migrations folder. */
export async function databaseBefore(tag: string): Promise<{ database: Database; close(): Promise<void> }> {
  const folder = migrationsBefore(tag)
  const { database, migrateFrom, close } = await emptyDatabase()
  await migrateFrom(folder)
  return { database, close: async () => { await close(); rmSync(folder, { recursive: true, force: true }) } }
}
