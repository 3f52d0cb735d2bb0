// Issue 26, the record: every answer of the Advice API (GET and POST, /legacy, the embed's runs, every content type)
// leaves one decision record with a Decision-Id header; personal values are kept only as keyed hashes; an owner can
// turn records off or make them durable.
import t from 'tap'
import { eq, sql } from 'drizzle-orm'
import { decisionRecords, entities, owners } from '../../../src/db/schema/index.ts'
import { personalHash } from '../../../src/services/decisions/build.ts'
import { buildTestApp } from '../../helpers/app.ts'
import { partnerCall, partnerFixture, query, RICH_ANSWERS } from '../delivery/advice-api-setup.ts'

const ctx = await buildTestApp(t)
const f = await partnerFixture(ctx)
const { db } = f
const call = partnerCall(ctx, f.production.secret)
const url = `/api/advice/${f.set.id}`
const VENDOR = 'application/vnd.advicestudio.json+'
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

async function recorded(id: string) {
  await ctx.app.partner.recorder.flush()
  const [row] = await db.select().from(decisionRecords).where(eq(decisionRecords.id, id))
  return row
}

t.test('each endpoint and content type leaves one record, named by Decision-Id', async (t) => {
  const seen = new Set<string>()
  const cases: Array<{ name: string; method: 'GET' | 'POST'; path: string; accept?: string; endpoint: string; headers?: Record<string, string> }> = [
    ...['text', 'html', 'htmlnolinks', 'attrstring', 'markdown', 'raw'].map((type) => ({ name: `GET ${type}`, method: 'GET' as const, path: url, accept: VENDOR + type, endpoint: 'api' })),
    { name: 'POST', method: 'POST', path: url, endpoint: 'api' },
    { name: 'GET legacy', method: 'GET', path: `${url}/legacy`, endpoint: 'legacy' },
    { name: 'POST legacy', method: 'POST', path: `${url}/legacy`, endpoint: 'legacy' },
    { name: 'the embed', method: 'GET', path: url, endpoint: 'embed', headers: { 'x-advice-client': 'embed' } },
  ]
  for (const c of cases) {
    const res = c.method === 'GET'
      ? await call({ url: `${c.path}?${query(RICH_ANSWERS)}`, ...(c.accept ? { accept: c.accept } : {}), ...(c.headers ? { headers: c.headers } : {}) })
      : await call({ method: 'POST', url: c.path, body: { inputs: RICH_ANSWERS } })
    t.equal(res.statusCode, 200, c.name)
    const id = String(res.headers['decision-id'])
    t.match(id, UUID_V7, `${c.name}: Decision-Id is a UUIDv7`)
    t.notOk(seen.has(id), `${c.name}: a new id`)
    seen.add(id)
    const row = await recorded(id)
    t.ok(row, `${c.name}: the record exists`)
    t.equal(row!.endpoint, c.endpoint, `${c.name}: endpoint`)
    t.equal(row!.adviceSetId, f.set.id)
    t.equal(row!.versionId, f.version.id)
    t.equal(row!.apiKeyId, f.production.key.id)
    t.equal(row!.environment, 'production')
    if (c.accept) t.equal(row!.contentType, c.accept.slice(VENDOR.length), `${c.name}: the content type asked for`)
  }
})

t.test('the record holds the inputs as used, the outcome and the path to each advice item', async (t) => {
  const res = await call({ url: `${url}?${query({ ...RICH_ANSWERS, Income: '60000', Unused: 'x' })}` })
  const body = res.json().data
  const row = (await recorded(String(res.headers['decision-id'])))!
  t.same(Object.keys(row.inputs).sort(), ['Age', 'Employed', 'Income', 'Region'], 'the set’s inputs; names it does not use are left out')
  t.equal(row.inputs.Income, 60000, 'coerced as the engine used it ("60000" → 60000)')
  t.equal(row.status, 'complete')
  t.same(row.adviceNodeIds, body.advice.map((a: { nodeId: string }) => a.nodeId), 'the advice given, in order')
  for (const item of row.outcome.items) t.ok(Array.isArray(item.path), `item ${item.nodeId} has its path`)
  t.ok(row.outcome.items.some((item) => item.path.length > 0), 'advice under conditions names them')
  t.ok(row.engineMicros >= 0)

  const partial = await call({ url: `${url}?${query({ Age: 40 })}` })
  const asked = (await recorded(String(partial.headers['decision-id'])))!
  t.equal(asked.status, 'question', 'a run that stops at a question')
  t.equal(asked.outcome.question?.nodeId, partial.json().data.currentFocus.nodeId, 'names the question asked next')
})

t.test('a personal variable is kept only as a keyed hash', async (t) => {
  await db.update(entities).set({ personal: true }).where(eq(entities.reservedName, 'Income'))
  ctx.app.partner.recorder.settings.forgetOwner(f.ownerId)
  const res = await call({ url: `${url}?${query({ ...RICH_ANSWERS, Income: 73519 })}` })
  const row = (await recorded(String(res.headers['decision-id'])))!
  t.same(row.inputs.Income, { personal: true }, 'inputs say it was personal')
  t.same(row.personalHashes, [personalHash(ctx.app.deps.config.secretKey, 'Income', 73519)], 'the keyed hash matches the value')
  const [{ n }] = await db.execute<{ n: number }>(sql`select count(*)::int as n from decision_records where decision_records::text like '%73519%'`).then((r) => (Array.isArray(r) ? r : (r as { rows: Array<{ n: number }> }).rows))
  t.equal(n, 0, 'the plain value is nowhere in the table')
  await db.update(entities).set({ personal: false }).where(eq(entities.reservedName, 'Income'))
  ctx.app.partner.recorder.settings.forgetOwner(f.ownerId)
})

t.test('records off: no record and no header; durable: committed before the answer', async (t) => {
  await db.update(owners).set({ decisionMode: 'off' }).where(eq(owners.id, f.ownerId))
  ctx.app.partner.recorder.settings.forgetOwner(f.ownerId)
  const off = await call({ url: `${url}?${query(RICH_ANSWERS)}` })
  t.equal(off.statusCode, 200)
  t.equal(off.headers['decision-id'], undefined, 'no Decision-Id')

  await db.update(owners).set({ decisionMode: 'durable' }).where(eq(owners.id, f.ownerId))
  ctx.app.partner.recorder.settings.forgetOwner(f.ownerId)
  const answers = await Promise.all(Array.from({ length: 20 }, () => call({ url: `${url}?${query(RICH_ANSWERS)}` })))
  const ids = answers.map((res) => String(res.headers['decision-id']))
  t.equal(ctx.app.partner.recorder.buffered, 0, 'nothing waits in the buffer')
  const rows = await db.select({ id: decisionRecords.id }).from(decisionRecords).where(sql`${decisionRecords.id} in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`)
  t.equal(rows.length, 20, 'every answer’s record was committed before the answer was sent (no flush needed)')
  await db.update(owners).set({ decisionMode: 'best_effort' }).where(eq(owners.id, f.ownerId))
  ctx.app.partner.recorder.settings.forgetOwner(f.ownerId)
})
