// Library benchmark (issue 4): 1,000 advice sets; server time of /library and /library/classic (p50/p95 over
// in-process requests, so no network or client cost is counted). Target: p95 < 30 ms.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { buildApp } from '../../src/app.ts'
import { openDatabase } from '../../src/db/client.ts'
import { insertCategory, setTagLinks } from '../../src/db/queries/advice-sets.ts'
import { createOwner, createUser } from '../../test/helpers/factories.ts'
import { createAdviceSet } from '../../test/helpers/advice-sets.ts'
import { Agent } from '../../test/helpers/agent.ts'

const SETS = 1000
const WARMUP = 20
const RUNS = 200

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-library-'))
const database = await openDatabase({ kind: 'pglite' })
await database.migrate()
const db = database.db
const app = await buildApp({ config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), db, logger: false })
await app.ready()

const ownerId = await createOwner(db, { name: 'Bench Advisers' })
const other = await createOwner(db, { name: 'Other Advisers' })
const user = await createUser(db, { ownerId, role: 'author' })
const categories = await Promise.all(['Pensions', 'Mortgages', 'Savings', 'Tax', 'Insurance'].map((name) => insertCategory(db, { ownerId, name, description: '' })))
const seedStart = performance.now()
for (let i = 0; i < SETS; i++) {
  const mine = i % 4 !== 0
  const set = await createAdviceSet(db, {
    ownerId: mine ? ownerId : other, name: `Advice set ${String(i).padStart(4, '0')} about ${['pensions', 'mortgages', 'savings', 'tax'][i % 4]}`,
    isPublic: !mine && i % 8 === 0, isStarter: i % 10 === 0, categoryId: mine ? categories[i % 5]!.id : null,
  })
  if (i % 3 === 0) await setTagLinks(db, 'adviceset', set.id, [1 + (i % 5)])
}
console.log(`seeded ${SETS} advice sets in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`)

const agent = new Agent(app)
await agent.signIn(user.email, user.password)

async function measure(url: string) {
  const times: number[] = []
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const t0 = performance.now()
    const res = await agent.get(url)
    const ms = performance.now() - t0
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`)
    if (i >= WARMUP) times.push(ms)
  }
  times.sort((a, b) => a - b)
  const at = (p: number) => times[Math.min(times.length - 1, Math.ceil(times.length * p) - 1)]!
  const p95 = at(0.95)
  console.log(`${url.padEnd(46)} p50 ${at(0.5).toFixed(1).padStart(6)} ms   p95 ${p95.toFixed(1).padStart(6)} ms   ${p95 < 30 ? 'ok (< 30 ms)' : 'MISSED (target < 30 ms)'}`)
}

console.log(`server time over ${RUNS} requests each (after ${WARMUP} warm-up), embedded PGlite`)
for (const url of [
  '/library', '/library?sort=name', '/library?page=20', `/library?category=${categories[1]!.id}`, '/library?tag=2&starter=true',
  '/library?q=mortgages', '/library/classic', '/library/classic?sort=name&page=10', '/explore',
]) await measure(url)

await app.close()
await database.close()
rmSync(dataDir, { recursive: true, force: true })
