// Sources in advice (issue 15 part 4): supplements linked to an advice node are among the engine result's sources
// and each advice item's, in every content type of the Advice API, with links partners can open; a published version
// keeps what was linked when it was made; copies and restores of nodes keep their links.
import t from 'tap'
import { and, eq, isNull } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent, signedInAgent } from '../../helpers/agent.ts'
import { createUser } from '../../helpers/factories.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { pngOf, upload } from '../../helpers/uploads.ts'
import { buildPensionSet, createPensionVariables, partnerCall, query, RICH_ANSWERS } from '../delivery/advice-api-setup.ts'
import { ruleNodes, rules } from '../../../src/db/schema/index.ts'

const ctx = await buildTestApp(t)
const db = ctx.database.db
const author = await createUser(db, { role: 'author' })
const agent = await signedInAgent(ctx.app, author)
await createPensionVariables(db, author.ownerId)
const { set } = await buildPensionSet(db, author.ownerId)
const [maxOut] = await db.select().from(ruleNodes).where(eq(ruleNodes.headline, 'Max out your pension'))
const { secret } = await createApiKey(db, { ownerId: author.ownerId })
const call = partnerCall(ctx, secret)
const VENDOR = 'application/vnd.advicestudio.json+'
const toNode = (id: number) => ({ targetType: 'ruleNode', targetId: id })

const fileRes = await upload(agent, { filename: 'Pension table.png', data: await pngOf(40, 30) }, { targetType: 'ruleNode', targetId: String(maxOut!.id) })
const file = fileRes.json().data
const link = (await agent.api('POST', '/api/supplements', { url: 'https://gov.example/pensions', name: 'Government guide', ...toNode(maxOut!.id) })).json().data
const chart = (await upload(agent, { filename: 'chart.html', data: Buffer.from('<!doctype html><p>chart</p>') }, { targetType: 'ruleNode', targetId: String(maxOut!.id) })).json().data

async function draftSources(): Promise<Array<{ id: string; name: string; uri?: string }>> {
  const res = await agent.api('POST', '/api/rule/debug', { adviceSetId: set.id, inputs: RICH_ANSWERS })
  return res.json().data.result.sources
}

t.test('the draft (debugger) has the node’s own source, then the linked supplements, with links into the app', async (t) => {
  const sources = await draftSources()
  t.same(sources.map((s) => s.id), ['guide', `supplement-${file.id}`, `supplement-${link.id}`, `supplement-${chart.id}`])
  t.match(sources[1], { name: 'Pension table', uri: new RegExp(`^/api/supplements/${file.id}/view\\?token=`) })
  t.same(sources[2], { id: `supplement-${link.id}`, name: 'Government guide', uri: 'https://gov.example/pensions' })
  t.match(sources[3]!.uri, new RegExp(`^/visualizations/${chart.id}/iframe\\?token=`), 'a chart opens in its sandboxed frame')
})

t.test('every content type of the Advice API carries them, with absolute links that open without signing in', async (t) => {
  await publishVersion(db, { adviceSetId: set.id })
  for (const type of ['text', 'html', 'htmlnolinks', 'attrstring', 'markdown', 'raw']) {
    const res = await call({ url: `/api/advice/${set.id}?${query(RICH_ANSWERS)}`, accept: VENDOR + type })
    t.equal(res.statusCode, 200, type)
    const data = res.json().data
    const ids = [`supplement-${file.id}`, `supplement-${link.id}`, `supplement-${chart.id}`]
    t.same(data.sources.map((s: { id: string }) => s.id), ['guide', ...ids], `${type}: the result's sources`)
    const item = data.advice.find((a: { nodeId: string }) => a.nodeId === String(maxOut!.id))
    t.same(item.sources.map((s: { id: string }) => s.id), ['guide', ...ids], `${type}: the advice item's sources`)
    t.match(data.sources[1].uri, new RegExp(`^http://localhost:3000/api/supplements/${file.id}/view\\?token=`), `${type}: absolute`)
  }
  const res = await call({ url: `/api/advice/${set.id}?${query(RICH_ANSWERS)}`, accept: `${VENDOR}text` })
  const uri = new URL(res.json().data.sources[1].uri)
  const opened = await new Agent(ctx.app).request({ method: 'GET', url: `${uri.pathname}${uri.search}` })
  t.equal(opened.statusCode, 200, 'the partner’s user opens it')
  t.equal(opened.headers['content-type'], 'image/png')
  const frameUri = new URL(res.json().data.sources[3].uri)
  const framed = await new Agent(ctx.app).request({ method: 'GET', url: `${frameUri.pathname}${frameUri.search}`, headers: { 'sec-fetch-dest': 'iframe' } })
  t.equal(framed.statusCode, 200)
  t.equal(framed.headers['content-security-policy'], 'sandbox allow-scripts')
})

t.test('a published version keeps what was linked when it was published', async (t) => {
  await agent.api('POST', `/api/supplements/${link.id}/unlink`, toNode(maxOut!.id))
  await agent.api('PATCH', `/api/supplements/${file.id}`, { name: 'Renamed table' })
  const draft = await draftSources()
  t.notOk(draft.some((s) => s.id === `supplement-${link.id}`), 'the draft lost the unlinked one')
  t.equal(draft.find((s) => s.id === `supplement-${file.id}`)?.name, 'Renamed table', 'the draft follows a rename')
  const published = (await call({ url: `/api/advice/${set.id}?${query(RICH_ANSWERS)}`, accept: `${VENDOR}text` })).json().data.sources
  t.ok(published.some((s: { id: string }) => s.id === `supplement-${link.id}`), 'the published version still has it')
  t.equal(published.find((s: { id: string }) => s.id === `supplement-${file.id}`).name, 'Pension table', 'under its name then')
  await agent.api('POST', `/api/supplements/${link.id}/link`, toNode(maxOut!.id))
})

t.test('a copied node keeps its links', async (t) => {
  const copied = await agent.api('POST', `/api/rule/${maxOut!.ruleId}/node/${maxOut!.id}/copy`, {})
  t.equal(copied.statusCode, 201)
  const copyId = copied.json().data.id
  const linked = (await agent.api('GET', `/api/supplements?targetType=ruleNode&targetId=${copyId}`)).json().data.map((s: { id: number }) => s.id)
  t.same(linked.sort(), [file.id, link.id, chart.id].sort())
})

t.test('restoring a version links its supplements again, and keeps typed sources in the node', async (t) => {
  const version = await publishVersion(db, { adviceSetId: set.id })
  await agent.api('POST', `/api/supplements/${chart.id}/unlink`, toNode(maxOut!.id))
  const restored = await agent.api('POST', `/api/adviceset/restore/${version.id}`)
  t.equal(restored.statusCode, 200)
  const liveRuleIds = (await db.select().from(rules).where(and(eq(rules.adviceSetId, set.id), isNull(rules.deletedAt)))).map((r) => r.id)
  // By id: the copy made above has the same headline, and the node itself must be the one that is live again.
  const [node] = await db.select().from(ruleNodes).where(and(eq(ruleNodes.id, maxOut!.id), isNull(ruleNodes.deletedAt)))
  t.ok(node && liveRuleIds.includes(node.ruleId), 'restore keeps the node itself (its id, so its comments and history stay)')
  t.same(node!.sources, [{ id: 'guide', name: 'Pension guide', uri: 'https://example.com/guide' }], 'only typed sources in the row')
  const linked = (await agent.api('GET', `/api/supplements?targetType=ruleNode&targetId=${node!.id}`)).json().data.map((s: { id: number }) => s.id)
  t.same(linked.sort(), [file.id, link.id, chart.id].sort(), 'the supplements are linked again')
  t.same((await draftSources()).map((s) => s.id).filter((id) => id.startsWith('supplement-')).sort(), [`supplement-${file.id}`, `supplement-${link.id}`, `supplement-${chart.id}`].sort())
})
