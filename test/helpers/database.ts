// Test databases. PGlite: one migrated template per run (a checkpointed, uncompressed data dir), loaded per test file.
// PostgreSQL (TEST_DRIVER=postgres + TEST_DATABASE_URL): one migrated template database, copied per test file.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createHash, randomBytes } from 'node:crypto'
import path from 'node:path'
import os from 'node:os'
import postgres from 'postgres'
import { openDatabase, type Database } from '../../src/db/client.ts'
import { JobQueue } from '../../src/jobs/queue.ts'
import { dropDatabase } from './drop-database.ts'

export type TestDriver = 'pglite' | 'postgres'
const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../../migrations')

/** The template is named after the migrations it holds (and pg-boss's version, whose schema it holds too), so a new
 * migration never meets a stale template. */
function migrationsHash(): string {
  const hash = createHash('sha256')
  for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).sort()) {
    hash.update(file).update(readFileSync(path.join(MIGRATIONS_DIR, file)))
  }
  hash.update(readFileSync(path.resolve(import.meta.dirname, '../../node_modules/pg-boss/package.json')))
  return hash.digest('hex').slice(0, 12)
}

const PGLITE_TEMPLATE = path.join(os.tmpdir(), `advice-studio-pglite-template-${migrationsHash()}.tar`)

export function testDriver(): TestDriver {
  return process.env.TEST_DRIVER === 'postgres' ? 'postgres' : 'pglite'
}

/** Builds the templates once per run (scripts/run-tests.ts calls this before tap starts). */
export async function prepareTemplates(drivers: TestDriver[]): Promise<void> {
  if (drivers.includes('pglite')) {
    const db = await openDatabase({ kind: 'pglite' })
    await migrateWithJobSchema(db)
    const dump = await db.dump!()
    writeFileSync(PGLITE_TEMPLATE, Buffer.from(await dump.arrayBuffer()))
    await db.close()
  }
  if (drivers.includes('postgres')) {
    const url = requireTestDatabaseUrl()
    const admin = postgres(url, { max: 1, onnotice: () => {} })
    await dropDatabase(admin, templateDb(url))
    await admin.unsafe(`CREATE DATABASE ${templateDb(url)}`)
    await admin.end()
    const db = await openDatabase({ kind: 'postgres', url: withDatabase(url, templateDb(url)) })
    await migrateWithJobSchema(db)
    await db.close()
  }
}

/** The app's migrations and pg-boss's schema (which the job queue installs on its first start), so no test pays for it. */
async function migrateWithJobSchema(db: Database): Promise<void> {
  await db.migrate()
  const quiet = { info: () => {}, warn: () => {}, error: () => {} }
  const jobs = new JobQueue(db.db, quiet)
  await jobs.start()
  await jobs.stop()
}

/** One template per role: a template left by another role on the same server could not be dropped by this one. */
function templateDb(url: string): string {
  const role = decodeURIComponent(new URL(url).username || 'postgres').toLowerCase().replace(/[^a-z0-9_]/g, '_')
  return `advice_studio_template_${role}`
}

function requireTestDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL
  if (!url) throw new Error('TEST_DRIVER=postgres needs TEST_DATABASE_URL')
  return url
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}

/** A fresh, migrated database for one test file; `close` drops it. `driver` overrides the run's (TEST_DRIVER): a
 * test beside a PostgreSQL database can still open a PGlite one. */
export async function openTestDatabase(opts: { driver?: TestDriver } = {}): Promise<Database & { url?: string }> {
  if ((opts.driver ?? testDriver()) === 'postgres') {
    const url = requireTestDatabaseUrl()
    const name = `advice_studio_test_${randomBytes(5).toString('hex')}`
    const admin = postgres(url, { max: 1, onnotice: () => {} })
    await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${templateDb(url)}`)
    // A test database is dropped after its file: a commit need not wait for the log to reach the disk (the CPU would
    // sit idle in every such wait), and only a crash of the server itself could lose what was committed.
    await admin.unsafe(`ALTER DATABASE ${name} SET synchronous_commit = off`)
    const db = await openDatabase({ kind: 'postgres', url: withDatabase(url, name) })
    return {
      ...db,
      url: withDatabase(url, name),
      close: async () => {
        await db.close()
        await dropDatabase(admin, name)
        await admin.end()
      },
    }
  }
  if (!existsSync(PGLITE_TEMPLATE)) await prepareTemplates(['pglite'])
  templateBytes ??= readFileSync(PGLITE_TEMPLATE)
  return openDatabase({ kind: 'pglite', loadDataDir: new TemplateBlob(templateBytes) })
}

/** The PGlite template as read once by this process: a file that opens several databases reads it once. */
let templateBytes: Buffer | undefined

/**
 * The template as PGlite takes it (a Blob, which it reads whole with arrayBuffer()), without a copy. Node 20's own
 * Blob gives its bytes through an internal stream, chunk by chunk, then joins them: for the 44 MB template that cost
 * about 0.6 s of the 1.2-1.8 s an open took, and this 0.45-0.65 s (scratch measurement, alternating, liftoff-only as
 * the test pool runs). PGlite copies each file out of the buffer into its own file system, so the bytes are shared safely.
 */
class TemplateBlob extends Blob {
  readonly #bytes: Buffer

  constructor(bytes: Buffer) {
    super([])
    this.#bytes = bytes
  }

  override get size(): number {
    return this.#bytes.byteLength
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    const { buffer, byteOffset, byteLength } = this.#bytes
    // A file this large has an ArrayBuffer of its own (never Node's shared pool); if not, a copy of its bytes.
    if (buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength) return buffer
    return new Uint8Array(this.#bytes).buffer
  }
}
