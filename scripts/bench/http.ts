// HTTP benchmark: requests/s and p50/p99 latency of the sign-in page and the signed-in dashboard, over loopback,
// on the embedded database. Bounded: a fixed number of requests against 127.0.0.1 only.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { buildApp } from '../../src/app.ts'
import { openDatabase } from '../../src/db/client.ts'
import { createUser } from '../../test/helpers/factories.ts'

const REQUESTS = 2000
const CONCURRENCY = 8

async function measure(name: string, url: string, headers: Record<string, string>) {
  const latencies: number[] = []
  let next = 0
  const started = performance.now()
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < REQUESTS) {
      next += 1
      const t0 = performance.now()
      const res = await fetch(url, { headers, redirect: 'manual' })
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`${name}: status ${res.status}`)
      latencies.push(performance.now() - t0)
    }
  }))
  const seconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!.toFixed(2)
  console.log(`${name.padEnd(28)} ${(REQUESTS / seconds).toFixed(0).padStart(6)} req/s   p50 ${pct(0.5)} ms   p99 ${pct(0.99)} ms`)
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-http-'))
const database = await openDatabase({ kind: 'pglite' })
await database.migrate()
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' })
const app = await buildApp({ config, db: database.db, logger: false })
await app.listen({ port: 0, host: '127.0.0.1' })
const address = app.server.address()
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`

const user = await createUser(database.db, { role: 'admin' })
const login = await fetch(`${base}/login`)
const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
const csrf = /name="csrf-token" content="([^"]+)"/.exec(await login.text())![1]!
const signIn = await fetch(`${base}/login`, {
  method: 'POST', redirect: 'manual',
  headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams({ _csrf: csrf, email: user.email, password: user.password }),
})
const session = signIn.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')

console.log(`HTTP, ${REQUESTS} requests at concurrency ${CONCURRENCY}, embedded PGlite`)
await measure('GET /login (visitor)', `${base}/login`, {})
await measure('GET / (signed-in dashboard)', `${base}/`, { cookie: session })
await measure('GET /api/user/:id', `${base}/api/user/${user.id}`, { cookie: session, accept: 'application/json' })

await app.close()
await database.close()
rmSync(dataDir, { recursive: true, force: true })
