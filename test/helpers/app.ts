// Builds the whole app on a fresh test database for app.inject tests; closes both on teardown.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance, RouteOptions } from 'fastify'
import { loadConfig, type Config } from '../../src/config.ts'
import { buildApp } from '../../src/app.ts'
import type { Database } from '../../src/db/client.ts'
import type { FileStore } from '../../src/files/index.ts'
import { openTestDatabase } from './database.ts'
import type { Outbound } from '../../src/net/index.ts'
import { loopbackOnlyOutbound } from './outbound.ts'

export interface TestContext {
  app: FastifyInstance
  database: Database
  config: Config
  /** Mails written to the outbox, oldest first. */
  outbox(): Array<{ to: Array<{ address: string }> | string; subject: string; text: string; link?: string }>
}

interface Teardown { teardown(fn: () => unknown): void; fail(message: string): void }

export async function buildTestApp(t: Teardown, env: Record<string, string> = {}, opts: {
  onRoute?: (route: RouteOptions) => void
  beforeReady?: (app: FastifyInstance) => void
  outbound?: Outbound
  logStream?: { write(line: string): void }
  /** A file store of the test's own (closed by the test); by default the one the config names, under DATA_DIR. */
  files?: (config: Config) => FileStore
} = {}): Promise<TestContext> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'advice-studio-test-'))
  const config = loadConfig({
    DATA_DIR: dataDir, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', BASE_URL: 'http://localhost:3000',
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123', ...env,
  })
  const database = await openTestDatabase()
  const app = await buildApp({
    config, db: database.db,
    logger: opts.logStream ? { level: 'trace', stream: opts.logStream } : process.env.TEST_LOG_LEVEL ? { level: process.env.TEST_LOG_LEVEL } : false,
    onRoute: opts.onRoute, outbound: opts.outbound ?? loopbackOnlyOutbound(t, config.outboundAllow),
    ...(opts.files ? { files: opts.files(config) } : {}),
  })
  opts.beforeReady?.(app)
  await app.ready()
  t.teardown(async () => {
    await app.close()
    await database.close()
    rmSync(dataDir, { recursive: true, force: true })
  })
  const outboxDir = path.join(dataDir, 'outbox')
  return {
    app, database, config,
    outbox: () => {
      let files: string[] = []
      try { files = readdirSync(outboxDir).sort() } catch { return [] }
      return files.map((f) => JSON.parse(readFileSync(path.join(outboxDir, f), 'utf8')))
    },
  }
}
