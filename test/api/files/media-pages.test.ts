// The media and visualization pages (SPEC §2; page name media-index) through app.inject: the library with search by
// name, the upload form that works without JavaScript, the link form, show with preview and uses, edit, delete
// (the 221 page while used) and restore, and the rights behind them.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent, signedInAgent } from '../../helpers/agent.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { createUser } from '../../helpers/factories.ts'
import { buildRule } from '../../helpers/rules.ts'
import { HTML_PAGE, multipartBody, pngOf, upload } from '../../helpers/uploads.ts'
import { supplements } from '../../../src/db/schema/index.ts'

const ctx = await buildTestApp(t)
const db = ctx.database.db
const author = await createUser(db, { role: 'author' })
const viewer = await createUser(db, { role: 'viewer', ownerId: author.ownerId })
const stranger = await createUser(db, { role: 'author' })
const agent = await signedInAgent(ctx.app, author)
const viewerAgent = await signedInAgent(ctx.app, viewer)
const strangerAgent = await signedInAgent(ctx.app, stranger)
const rowCount = async () => (await db.select({ id: supplements.id }).from(supplements)).length

/** The no-JavaScript upload form: multipart, its CSRF token in the action's query. */
async function postUploadForm(a: Agent, path: string, file: { filename: string; data: Buffer }, fields: Record<string, string> = {}, token = a.csrfToken) {
  const { payload, contentType } = await multipartBody(file, fields)
  return a.request({ method: 'POST', url: `${path}?_csrf=${encodeURIComponent(token)}`, payload, headers: { 'content-type': contentType } })
}

t.test('the upload form works without JavaScript; its CSRF token is checked', async (t) => {
  const page = await agent.get('/media/new')
  t.equal(page.statusCode, 200)
  t.match(page.body, /<form method="post" action="\/media\/new\?_csrf=[^"]+" enctype="multipart\/form-data"/)
  t.match(page.body, 'data-island="file-uploader"')
  const res = await postUploadForm(agent, '/media/new', { filename: 'Bar chart.png', data: await pngOf(50, 40) }, { name: 'Savings bars', type: 'referenceDoc' })
  t.equal(res.statusCode, 303)
  const [row] = await db.select().from(supplements).where(eq(supplements.name, 'Savings bars'))
  t.equal(res.headers.location, `/media/${row!.id}/show`)
  t.match(row, { type: 'referenceDoc', format: 'image', contentType: 'image/png' })
  const shown = await agent.get(res.headers.location as string)
  t.match(shown.body, '“Savings bars” was added.')

  const rows = await rowCount()
  const forged = await postUploadForm(agent, '/media/new', { filename: 'x.png', data: await pngOf(5, 5) }, {}, 'forged-token')
  t.equal(forged.statusCode, 403)
  t.equal(await rowCount(), rows, 'no row without the token')
})

t.test('the visualization form takes HTML only, and says so by the field', async (t) => {
  await agent.get('/visualizations/new')
  const rows = await rowCount()
  const png = await postUploadForm(agent, '/visualizations/new', { filename: 'not-a-chart.png', data: await pngOf(5, 5) })
  t.equal(png.statusCode, 400)
  t.match(png.body, /<p class="field-error" id="f-file-error">file: a visualization is an HTML page; “not-a-chart.png” is image\/png/)
  t.equal(await rowCount(), rows)
  const api = await upload(agent, { filename: 'x.png', data: await pngOf(5, 5) }, {}, '/api/supplements/upload?library=visualizations')
  t.equal(api.statusCode, 400)
  const html = await postUploadForm(agent, '/visualizations/new', { filename: 'chart.html', data: HTML_PAGE })
  t.equal(html.statusCode, 303)
  t.match(html.headers.location, /^\/visualizations\/\d+\/show$/)
})

t.test('the link form: added, or the address refused by its field with the typed values kept', async (t) => {
  await agent.get('/media/new')
  const bad = await agent.postForm('/media/new', { url: 'javascript:alert(1)', name: 'Sneaky' })
  t.equal(bad.statusCode, 400)
  t.match(bad.body, 'only http:// and https:// addresses are allowed')
  t.match(bad.body, 'value="Sneaky"')
  const ok = await agent.postForm('/media/new', { url: 'https://pensions.example/', name: 'Pension portal' })
  t.equal(ok.statusCode, 303)
  const show = await agent.get(ok.headers.location as string)
  t.match(show.body, '<a href="https://pensions.example/" rel="noopener noreferrer" target="_blank">https://pensions.example/</a>')
})

t.test('the library lists, searches by name, and says where things are used', async (t) => {
  const set = await createAdviceSet(db, { ownerId: author.ownerId, name: 'Pensions' })
  const { nodes: [node] } = await buildRule(db, set.id, 'Rule', [{ type: 'advice', headline: 'Save' }])
  const used = (await upload(agent, { filename: 'Used everywhere.png', data: await pngOf(8, 8) }, { targetType: 'ruleNode', targetId: String(node!.id) })).json().data
  const index = await agent.get('/media')
  t.equal(index.statusCode, 200)
  t.match(index.body, '<main data-page="media-index">')
  t.match(index.body, 'Used everywhere')
  t.match(index.body, 'Used in 1 place')
  t.match(index.body, `src="/api/supplements/${used.id}/view?thumbnail=148x148"`)
  const searched = await agent.get('/media?q=used%20every')
  t.match(searched.body, 'Used everywhere')
  t.notMatch(searched.body, 'Savings bars')
  t.match((await agent.get('/media?q=zzz')).body, 'Nothing here is named like “zzz”')
  t.notMatch((await agent.get('/visualizations')).body, 'Used everywhere', 'images are not visualizations')
  const show = await agent.get(`/media/${used.id}/show`)
  t.match(show.body, `<a href="/adviceset/${set.id}/rule/${node!.ruleId}/part/${node!.id}">Advice “Save” in Rule</a>`)
  t.match(show.body, `<img class="media-preview__image" src="/api/supplements/${used.id}/view"`)

  const blocked = await agent.postForm(`/media/${used.id}/delete`, {})
  t.equal(blocked.statusCode, 221)
  t.match(blocked.body, 'Delete Not Allowed.')
  t.match(blocked.body, 'Advice “Save” in Rule')
  await agent.api('POST', `/api/supplements/${used.id}/unlink`, { targetType: 'ruleNode', targetId: node!.id })
  const deleted = await agent.postForm(`/media/${used.id}/delete`, {})
  t.equal(deleted.statusCode, 303)
  t.equal(deleted.headers.location, `/media?deleted=${used.id}`)
  const after = await agent.get(deleted.headers.location as string)
  t.match(after.body, `action="/media/${used.id}/restore"`)
  t.notMatch(after.body, '<span class="media-card__name">Used everywhere</span>')
  const restored = await agent.postForm(`/media/${used.id}/restore`, {})
  t.equal(restored.headers.location, `/media/${used.id}/show`)
})

t.test('a supplement added to an advice set is a reference document, its use named once', async (t) => {
  const set = await createAdviceSet(db, { ownerId: author.ownerId, name: 'Mortgage affordability' })
  const { nodes: [node] } = await buildRule(db, set.id, 'Rule', [{ type: 'advice', headline: 'Borrow less' }])
  const uploaded = (await upload(agent, { filename: 'Rates.png', data: await pngOf(8, 8) }, { targetType: 'adviceSet', targetId: String(set.id) })).json().data
  const linked = (await agent.api('POST', '/api/supplements', { url: 'https://example.com/rates', name: 'Rates page', targetType: 'adviceSet', targetId: set.id })).json().data
  const source = (await upload(agent, { filename: 'Source.png', data: await pngOf(8, 8) }, { targetType: 'ruleNode', targetId: String(node!.id) })).json().data
  const typeOf = async (id: number) => (await db.select({ type: supplements.type }).from(supplements).where(eq(supplements.id, id)))[0]!.type
  t.equal(await typeOf(uploaded.id), 'referenceDoc', 'an upload for the set')
  t.equal(await typeOf(linked.id), 'referenceDoc', 'a link for the set')
  t.equal(await typeOf(source.id), 'adviceSource', 'an upload for an advice node is still a source')

  const show = await agent.get(`/media/${uploaded.id}/show`)
  t.match(show.body, '<dt>Used as</dt><dd>Reference document</dd>')
  t.match(show.body, `<li><a href="/adviceset/${set.id}/show">Advice set “Mortgage affordability”</a></li>`, 'the set is named once')
  const sourceShow = await agent.get(`/media/${source.id}/show`)
  t.match(sourceShow.body, `Advice “Borrow less” in Rule</a> <span class="muted">— Mortgage affordability</span>`, 'a node’s use still says which set')
})

t.test('a visualization shows in a sandboxed frame, and each library keeps to its own', async (t) => {
  const chart = (await upload(agent, { filename: 'chart.html', data: HTML_PAGE })).json().data
  const show = await agent.get(`/visualizations/${chart.id}/show`)
  t.match(show.body, `<iframe class="media-preview__frame" src="/visualizations/${chart.id}/iframe" sandbox="allow-scripts"`)
  t.equal((await agent.get(`/media/${chart.id}/show`)).statusCode, 404)
  t.equal((await agent.get(`/media/${chart.id}/iframe`)).statusCode, 404)
})

t.test('edit: writers save, bad input is named, viewers and strangers cannot', async (t) => {
  const file = (await upload(agent, { filename: 'Old name.png', data: await pngOf(8, 8) })).json().data
  const form = await agent.get(`/media/${file.id}/edit`)
  t.equal(form.statusCode, 200)
  t.match(form.body, 'value="Old name"')
  const bad = await agent.postForm(`/media/${file.id}/edit`, { name: '', type: 'adviceSource', description: '' })
  t.equal(bad.statusCode, 400)
  t.match(bad.body, 'name: the name is required.')
  const saved = await agent.postForm(`/media/${file.id}/edit`, { name: 'New name', type: 'actionButton', description: 'A button image' })
  t.equal(saved.statusCode, 303)
  t.match((await agent.get(`/media/${file.id}/show`)).body, 'Action button')
  t.equal((await viewerAgent.get(`/media/${file.id}/edit`)).statusCode, 403)
  t.equal((await viewerAgent.postForm(`/media/${file.id}/edit`, { name: 'x' })).statusCode, 403)
  t.equal((await viewerAgent.postForm(`/media/${file.id}/delete`, {})).statusCode, 403)
  t.equal((await viewerAgent.get('/media/new')).statusCode, 403)
  for (const path of [`/media/${file.id}/show`, `/media/${file.id}/edit`, `/media/${file.id}/iframe`]) {
    t.equal((await strangerAgent.get(path)).statusCode, 404, `a stranger: ${path}`)
  }
  t.notMatch((await strangerAgent.get('/media')).body, 'New name')
})

t.test('signed out: pages go to sign-in; the iframe opens with the token only', async (t) => {
  const file = (await upload(agent, { filename: 'Shared.png', data: await pngOf(8, 8) })).json().data
  const anonymous = new Agent(ctx.app)
  const page = await anonymous.get('/media')
  t.equal(page.statusCode, 302)
  t.equal(page.headers.location, '/login?next=%2Fmedia')
  t.equal((await anonymous.get(`/media/${file.id}/iframe`)).statusCode, 302)
  const [row] = await db.select().from(supplements).where(eq(supplements.id, file.id))
  const withToken = await anonymous.get(`/media/${file.id}/iframe?token=${row!.accessToken}`)
  t.equal(withToken.statusCode, 200)
  t.equal(withToken.headers['content-type'], 'image/png')
  t.equal((await anonymous.get(`/media/${file.id}/iframe?token=wrong`)).statusCode, 404)
})
