// /api/supplements links, reads and writes (issue 15 acceptance): link and unlink to advice nodes and advice sets,
// delete refused with 221 while linked, restore, another owner's supplement is a 404, viewers read but never write,
// the token opens the file without a session, and links made with an upload or a link supplement are all-or-nothing.
import t from 'tap'
import { and, eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent, signedInAgent } from '../../helpers/agent.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { createUser } from '../../helpers/factories.ts'
import { buildRule } from '../../helpers/rules.ts'
import { pngOf, upload } from '../../helpers/uploads.ts'
import { activity, supplementLinks, supplements } from '../../../src/db/schema/index.ts'

const ctx = await buildTestApp(t)
const db = ctx.database.db
const author = await createUser(db, { role: 'author' })
const viewer = await createUser(db, { role: 'viewer', ownerId: author.ownerId })
const stranger = await createUser(db, { role: 'author' })
const acme = await signedInAgent(ctx.app, author)
const acmeViewer = await signedInAgent(ctx.app, viewer)
const globex = await signedInAgent(ctx.app, stranger)

const set = await createAdviceSet(db, { ownerId: author.ownerId, name: 'Pensions' })
const { nodes: [advice, condition, second] } = await buildRule(db, set.id, 'Eligibility', [
  { type: 'advice', headline: 'Save more', text: 'Put 10% aside.' },
  { type: 'condition', expression: 'true' },
  { type: 'advice', headline: 'Check your pension' },
])
const globexSet = await createAdviceSet(db, { ownerId: stranger.ownerId, name: 'Globex set' })
const { nodes: [globexAdvice] } = await buildRule(db, globexSet.id, 'Theirs', [{ type: 'advice', headline: 'Theirs' }])

async function uploaded(agent: Agent, filename = 'guide.png', fields: Record<string, string> = {}) {
  const res = await upload(agent, { filename, data: await pngOf(30, 20) }, fields)
  if (res.statusCode !== 201) throw new Error(`upload failed: ${res.statusCode} ${res.body}`)
  return res.json().data as { id: number; name: string; href: string }
}
const toNode = (id: number) => ({ targetType: 'ruleNode', targetId: id })
const linkedToNode = async (agent: Agent, nodeId: number) => (await agent.api('GET', `/api/supplements?targetType=ruleNode&targetId=${nodeId}`)).json().data.map((s: { id: number }) => s.id)

t.test('link to an advice node, list it there, see where it is used; linking twice is one link', async (t) => {
  const file = await uploaded(acme)
  const linked = await acme.api('POST', `/api/supplements/${file.id}/link`, toNode(advice!.id))
  t.equal(linked.statusCode, 200)
  t.match(linked.json().data, { linked: true, targetType: 'ruleNode', targetId: advice!.id })
  t.equal((await acme.api('POST', `/api/supplements/${file.id}/link`, toNode(advice!.id))).statusCode, 200)
  t.same(await linkedToNode(acme, advice!.id), [file.id])
  const read = (await acme.api('GET', `/api/supplements/${file.id}`)).json().data
  t.equal(read.uses.length, 1)
  t.match(read.uses[0], { targetType: 'ruleNode', targetId: advice!.id, label: 'Advice “Save more” in Eligibility', href: `/adviceset/${set.id}/rule/${advice!.ruleId}/part/${advice!.id}` })
  const audited = await db.select().from(activity).where(and(eq(activity.entityType, 'supplement-link'), eq(activity.entityId, String(file.id))))
  t.equal(audited.length, 1, 'the link is in the activity log once')
})

t.test('only advice nodes have sources; bad targets are named', async (t) => {
  const file = await uploaded(acme)
  const onCondition = await acme.api('POST', `/api/supplements/${file.id}/link`, toNode(condition!.id))
  t.equal(onCondition.statusCode, 400)
  t.match(onCondition.json().error, { field: 'targetId', message: /Only advice nodes have sources/ })
  const badType = await acme.api('POST', `/api/supplements/${file.id}/link`, { targetType: 'rule', targetId: 1 })
  t.match(badType.json().error, { field: 'targetType' })
  const badId = await acme.api('POST', `/api/supplements/${file.id}/link`, { targetType: 'ruleNode', targetId: 'x' })
  t.match(badId.json().error, { field: 'targetId', message: 'Invalid item id format.' })
})

t.test('delete is refused with 221 while linked; after unlink it deletes, and restores', async (t) => {
  const file = await uploaded(acme, 'cited.png')
  await acme.api('POST', `/api/supplements/${file.id}/link`, toNode(second!.id))
  await acme.api('POST', `/api/supplements/${file.id}/link`, { targetType: 'adviceSet', targetId: set.id })
  const blocked = await acme.api('DELETE', `/api/supplements/${file.id}`)
  t.equal(blocked.statusCode, 221)
  t.match(blocked.json().error, { status: 221, name: 'Delete Not Allowed', message: '“cited” cannot be deleted while these 2 depend on it.' })
  t.same(blocked.json().error.dependents.map((d: { type: string }) => d.type).sort(), ['adviceSet', 'ruleNode'])
  const [row] = await db.select().from(supplements).where(eq(supplements.id, file.id))
  t.equal(row!.deletedAt, null, 'still there')

  t.equal((await acme.api('POST', `/api/supplements/${file.id}/unlink`, toNode(second!.id))).statusCode, 200)
  t.equal((await acme.api('DELETE', `/api/supplements/${file.id}`)).statusCode, 221, 'the advice set still uses it')
  t.equal((await acme.api('POST', `/api/supplements/${file.id}/unlink`, { targetType: 'adviceSet', targetId: set.id })).statusCode, 200)
  const notLinked = await acme.api('POST', `/api/supplements/${file.id}/unlink`, toNode(second!.id))
  t.equal(notLinked.statusCode, 404)
  t.equal((await acme.api('DELETE', `/api/supplements/${file.id}`)).statusCode, 200)
  t.equal((await acme.api('GET', `/api/supplements/${file.id}`)).statusCode, 404, 'deleted is gone')
  t.equal((await acme.request({ method: 'GET', url: `/api/supplements/${file.id}/view` })).statusCode, 404)
  const restored = await acme.api('POST', `/api/supplements/${file.id}/restore`)
  t.equal(restored.statusCode, 200)
  t.equal((await acme.api('GET', `/api/supplements/${file.id}`)).statusCode, 200)
  t.equal((await acme.api('POST', `/api/supplements/${file.id}/restore`)).statusCode, 400, 'restoring a live one is refused')
})

t.test('a node with a deleted supplement does not show it; the link stays for a restore', async (t) => {
  const file = await uploaded(acme, 'gone.png')
  t.equal((await acme.api('DELETE', `/api/supplements/${file.id}`)).statusCode, 200)
  t.notOk((await linkedToNode(acme, second!.id)).includes(file.id))
})

t.test('another owner gets 404 for everything about a supplement it cannot read', async (t) => {
  const file = await uploaded(acme, 'private.png')
  t.equal((await globex.api('GET', `/api/supplements/${file.id}`)).statusCode, 404)
  t.equal((await globex.request({ method: 'GET', url: `/api/supplements/${file.id}/view` })).statusCode, 404)
  t.equal((await globex.request({ method: 'GET', url: `/media/${file.id}/show` })).statusCode, 404)
  t.equal((await globex.api('PATCH', `/api/supplements/${file.id}`, { name: 'Mine now' })).statusCode, 404)
  t.equal((await globex.api('DELETE', `/api/supplements/${file.id}`)).statusCode, 404)
  t.equal((await globex.api('POST', `/api/supplements/${file.id}/link`, toNode(globexAdvice!.id))).statusCode, 404)
  const theirs = await uploaded(globex, 'theirs.png')
  t.equal((await globex.api('POST', `/api/supplements/${theirs.id}/link`, toNode(advice!.id))).statusCode, 404, 'nor can it link to a node it cannot read')
  t.notOk((await globex.api('GET', '/api/supplements')).json().data.some((s: { id: number }) => s.id === file.id), 'nor list it')
  const [row] = await db.select().from(supplements).where(eq(supplements.id, file.id))
  t.equal(row!.name, 'private')
})

t.test('readers of a public set read the supplements linked to it', async (t) => {
  const publicSet = await createAdviceSet(db, { ownerId: author.ownerId, name: 'Open to all', isPublic: true })
  const { nodes: [node] } = await buildRule(db, publicSet.id, 'Open', [{ type: 'advice', headline: 'Open advice' }])
  const file = await uploaded(acme, 'public-source.png')
  t.equal((await globex.api('GET', `/api/supplements/${file.id}`)).statusCode, 404)
  await acme.api('POST', `/api/supplements/${file.id}/link`, toNode(node!.id))
  const read = await globex.api('GET', `/api/supplements/${file.id}`)
  t.equal(read.statusCode, 200)
  t.equal(read.json().data.canWrite, false)
  t.equal((await globex.api('PATCH', `/api/supplements/${file.id}`, { name: 'Mine' })).statusCode, 403)
  t.equal((await globex.api('POST', `/api/supplements/${file.id}/link`, toNode(node!.id))).statusCode, 403, 'the public set is not theirs to change')
})

t.test('viewers read supplements and never change them', async (t) => {
  const file = await uploaded(acme, 'team.png')
  t.equal((await acmeViewer.api('GET', `/api/supplements/${file.id}`)).statusCode, 200)
  t.equal((await acmeViewer.request({ method: 'GET', url: `/api/supplements/${file.id}/view` })).statusCode, 200)
  t.equal((await acmeViewer.api('PATCH', `/api/supplements/${file.id}`, { name: 'x' })).statusCode, 403)
  t.equal((await acmeViewer.api('DELETE', `/api/supplements/${file.id}`)).statusCode, 403)
  t.equal((await acmeViewer.api('POST', `/api/supplements/${file.id}/link`, toNode(advice!.id))).statusCode, 403)
  t.equal((await acmeViewer.api('POST', '/api/supplements', { url: 'https://example.com' })).statusCode, 403)
})

t.test('the token opens the file without a session; a wrong one is a 404; format=link gives the absolute link', async (t) => {
  const file = await uploaded(acme, 'shared.png')
  const link = (await acme.request({ method: 'GET', url: `/api/supplements/${file.id}/view?format=link`, headers: { accept: 'application/json' } })).json().data.url as string
  t.match(link, new RegExp(`^http://localhost:3000/api/supplements/${file.id}/view\\?token=[A-Za-z0-9_-]{32}$`))
  const anonymous = new Agent(ctx.app)
  const opened = await anonymous.request({ method: 'GET', url: link.replace('http://localhost:3000', '') })
  t.equal(opened.statusCode, 200)
  t.equal(opened.headers['content-type'], 'image/png')
  t.equal(opened.headers['cross-origin-resource-policy'], 'cross-origin', 'partners’ pages may show it')
  t.equal((await anonymous.request({ method: 'GET', url: `/api/supplements/${file.id}/view?token=${'x'.repeat(32)}` })).statusCode, 404)
  t.equal((await anonymous.request({ method: 'GET', url: `/api/supplements/${file.id}/view`, headers: { accept: 'application/json' } })).statusCode, 401)
})

t.test('an upload for a node is linked with it, and refused whole when the node is not the author’s', async (t) => {
  const file = await uploaded(acme, 'with-link.png', { targetType: 'ruleNode', targetId: String(second!.id) })
  t.ok((await linkedToNode(acme, second!.id)).includes(file.id))
  const rows = (await db.select().from(supplements)).length
  const refused = await upload(acme, { filename: 'x.png', data: await pngOf(5, 5) }, { targetType: 'ruleNode', targetId: String(globexAdvice!.id) })
  t.equal(refused.statusCode, 404)
  t.equal((await db.select().from(supplements)).length, rows, 'no row')
})

t.test('link supplements: http(s) only, named after the address by default, linked at once when asked', async (t) => {
  for (const url of ['javascript:alert(1)', 'ftp://example.com/a', 'not a url', 'https://user:pw@example.com/']) {
    const res = await acme.api('POST', '/api/supplements', { url })
    t.equal(res.statusCode, 400, url)
    t.match(res.json().error, { field: 'url' }, url)
  }
  const long = await acme.api('POST', '/api/supplements', { url: `https://example.com/${'a'.repeat(2100)}` })
  t.match(long.json().error, { field: 'url', message: 'url: must be at most 2048 characters.' })
  const plain = await acme.api('POST', '/api/supplements', { url: 'https://pensions.example/guide' })
  t.equal(plain.statusCode, 201)
  t.match(plain.json().data, { name: 'pensions.example/guide', format: 'link', contentType: 'text/uri-list', url: 'https://pensions.example/guide', source: null })
  const google = await acme.api('POST', '/api/supplements', { url: 'https://docs.google.com/document/d/1', name: 'Plan', imageUrl: 'https://docs.google.com/x.png', ...toNode(second!.id) })
  t.match(google.json().data, { name: 'Plan', source: 'google', imageUrl: 'https://docs.google.com/x.png' })
  t.ok((await linkedToNode(acme, second!.id)).includes(google.json().data.id))
  const badImage = await acme.api('POST', '/api/supplements', { url: 'https://example.com', imageUrl: 'data:image/png;base64,AAAA' })
  t.match(badImage.json().error, { field: 'imageUrl' })
  const view = await acme.request({ method: 'GET', url: `/api/supplements/${plain.json().data.id}/view` })
  t.equal(view.statusCode, 302)
  t.equal(view.headers.location, 'https://pensions.example/guide')
})

t.test('an advice node takes at most 10 sources', async (t) => {
  const { nodes: [node] } = await buildRule(db, set.id, 'Many', [{ type: 'advice', headline: 'Many sources' }])
  for (let i = 0; i < 10; i++) {
    const res = await acme.api('POST', '/api/supplements', { url: `https://example.com/${i}`, ...toNode(node!.id) })
    t.equal(res.statusCode, 201)
  }
  const eleventh = await acme.api('POST', '/api/supplements', { url: 'https://example.com/11', ...toNode(node!.id) })
  t.equal(eleventh.statusCode, 400)
  t.match(eleventh.json().error, { field: 'targetId', message: 'An advice node can have at most 10 sources.' })
  t.equal((await db.select().from(supplementLinks).where(and(eq(supplementLinks.targetType, 'ruleNode'), eq(supplementLinks.targetId, node!.id)))).length, 10)
})

t.test('edits are checked, saved and audited; the library lists and searches by name', async (t) => {
  const file = await uploaded(acme, 'Retirement chart.png')
  const renamed = await acme.api('PATCH', `/api/supplements/${file.id}`, { name: 'Savings by age', type: 'referenceDoc', description: 'Bars' })
  t.equal(renamed.statusCode, 200)
  t.match(renamed.json().data, { name: 'Savings by age', type: 'referenceDoc', description: 'Bars' })
  t.match((await acme.api('PATCH', `/api/supplements/${file.id}`, { name: '  ' })).json().error, { field: 'name' })
  t.match((await acme.api('PATCH', `/api/supplements/${file.id}`, { url: 'https://example.com' })).json().error, { field: 'url', message: /Only a link has an address/ })
  const found = (await acme.api('GET', '/api/supplements?q=savings%20by')).json().data
  t.same(found.map((s: { id: number }) => s.id), [file.id])
  t.equal((await acme.api('GET', '/api/supplements?q=nothing-like-this')).json().data.length, 0)
  const audit = await db.select().from(activity).where(and(eq(activity.entityType, 'supplement'), eq(activity.entityId, String(file.id))))
  t.same(audit.map((a) => a.action).sort(), ['create', 'update'])
})
