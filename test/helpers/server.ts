// A real app listening on a random port (PGlite), for browser tests.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { loadConfig } from '../../src/config.ts'
import { buildApp } from '../../src/app.ts'
import type { Db } from '../../src/db/client.ts'
import type { UserRole } from '../../src/db/schema/index.ts'
import { openTestDatabase, type TestDriver } from './database.ts'
import { buildIslandsIfStale } from '../../scripts/build-islands.ts'
import { createUser, type TestUser } from './factories.ts'
import { loopbackOnlyOutbound } from './outbound.ts'

export interface TestServer {
  url: string
  db: Db
  app: FastifyInstance
  createUser(opts?: { role?: UserRole; ownerId?: string; name?: string }): Promise<TestUser>
  close(): Promise<void>
}

/** `env` adds settings (e.g. OUTBOUND_ALLOW for a local server the test starts); outbound requests reach only loopback.
 * `beforeReady` sees the app before it starts (to register test job kinds). `driver` overrides the run's database
 * (TEST_DRIVER), for a test with one instance on each. */
export async function startServer(opts: { env?: Record<string, string>; beforeReady?: (app: FastifyInstance) => void; driver?: TestDriver } = {}): Promise<TestServer> {
  await buildIslandsIfStale()
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'advice-studio-e2e-'))
  const database = await openTestDatabase({ driver: opts.driver })
  const probe = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SESSION_SECRET: 'e2e-secret-e2e-secret-e2e-secret-0123456', ...opts.env })
  const outbound = loopbackOnlyOutbound({ fail: (message) => { throw new Error(message) } }, probe.outboundAllow)
  const app = await buildApp({ config: probe, db: database.db, logger: false, outbound })
  opts.beforeReady?.(app)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const url = `http://127.0.0.1:${port}`
  app.deps.config.baseUrl = url
  return {
    url,
    app,
    db: database.db,
    createUser: (opts) => createUser(database.db, opts),
    close: async () => {
      await app.close()
      await database.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
