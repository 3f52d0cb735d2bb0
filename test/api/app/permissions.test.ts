// Owners, roles and visibility (DESIGN): enforced on the server, whatever the request asks for.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { retirementSet } from '../../helpers/scenarios.ts'
import { users } from '../../../src/db/schema/index.ts'
import { createAdviceSet as createAdviceSetRow } from '../../helpers/advice-sets.ts'
import { buildRule } from '../../helpers/rules.ts'
import { publishVersion } from '../../helpers/publishing.ts'

const { app, database, outbox } = await buildTestApp(t)
const db = database.db
const provider = await createOwner(db, { id: 'TF', name: 'Advice Studio' })
const providerAdmin = await createUser(db, { ownerId: provider, role: 'admin', name: 'Pat Provider' })
const acme = await createOwner(db, { name: 'Acme' })
const acmeAdmin = await createUser(db, { ownerId: acme, role: 'admin', name: 'Ann Acme' })
const acmeAuthor = await createUser(db, { ownerId: acme, role: 'author', name: 'Art Acme' })
const globex = await createOwner(db, { name: 'Globex' })
const globexAuthor = await createUser(db, { ownerId: globex, role: 'author', name: 'Gus Globex' })

async function signedIn(user: { email: string; password: string }) {
  const agent = new Agent(app)
  await agent.signIn(user.email, user.password)
  return agent
}

t.test('an author gets 403 on the admin user pages; the provider admin gets them', async (t) => {
  const author = await signedIn(acmeAuthor)
  t.equal((await author.get('/admin/users')).statusCode, 403)
  t.equal((await author.get('/admin/users/new')).statusCode, 403)
  const ownerAdmin = await signedIn(acmeAdmin)
  t.equal((await ownerAdmin.get('/admin/users')).statusCode, 403, 'an admin of another owner is not a provider admin')
  const admin = await signedIn(providerAdmin)
  const page = await admin.get('/admin/users')
  t.equal(page.statusCode, 200)
  t.match(page.body, '<main data-page="admin-users">')
  t.match(page.body, globexAuthor.email, 'the provider admin sees every user')
})

t.test('signed-out visitors are sent to /login from pages and get 401 from /api', async (t) => {
  const anon = new Agent(app)
  const page = await anon.get('/user/team')
  t.equal(page.statusCode, 302)
  t.equal(page.headers.location, '/login?next=%2Fuser%2Fteam')
  t.equal((await anon.get('/')).headers.location, '/login')
  const api = await anon.api('GET', `/api/user/${acmeAuthor.id}`, undefined, { csrf: false })
  t.equal(api.statusCode, 401)
  t.same(api.json(), { error: { status: 401, name: 'Unauthorized', message: 'Please sign in.' } })
})

t.test('a user of one owner cannot read another owner’s team or profile', async (t) => {
  const gus = await signedIn(globexAuthor)
  const team = await gus.get('/user/team')
  t.equal(team.statusCode, 200)
  t.match(team.body, globexAuthor.email)
  t.notMatch(team.body, acmeAuthor.email, 'only the own owner’s team is listed')
  const profile = await gus.get(`/profile?id=${acmeAuthor.id}`)
  t.equal(profile.statusCode, 404)
  t.notMatch(profile.body, acmeAuthor.email)
  const edit = await gus.get(`/profile/edit?id=${acmeAuthor.id}`)
  t.equal(edit.statusCode, 404)
  const api = await gus.api('GET', `/api/user/${acmeAuthor.id}`)
  t.equal(api.statusCode, 404)
  t.notMatch(api.body, acmeAuthor.email)
  const patch = await gus.api('PATCH', `/api/user/${acmeAuthor.id}`, { name: 'Taken over' })
  t.equal(patch.statusCode, 404)
  const [row] = await db.select().from(users).where(eq(users.id, acmeAuthor.id))
  t.equal(row!.name, acmeAuthor.name, 'nothing changed')
})

t.test('team members see each other; only admins and the person edit a profile', async (t) => {
  const art = await signedIn(acmeAuthor)
  t.equal((await art.get(`/profile?id=${acmeAdmin.id}`)).statusCode, 200)
  const denied = await art.api('PATCH', `/api/user/${acmeAdmin.id}`, { name: 'Renamed by author' })
  t.equal(denied.statusCode, 403)
  const ann = await signedIn(acmeAdmin)
  const allowed = await ann.api('PATCH', `/api/user/${acmeAuthor.id}`, { title: 'Writes pension advice' })
  t.equal(allowed.statusCode, 200)
  t.equal(allowed.json().data.user.title, 'Writes pension advice')
})

t.test('bad ids and bad fields are named', async (t) => {
  const ann = await signedIn(acmeAdmin)
  const badId = await ann.api('GET', '/api/user/abc')
  t.equal(badId.statusCode, 400)
  t.equal(badId.json().error.message, 'Valid User ID required.')
  const emptyName = await ann.api('PATCH', `/api/user/${acmeAdmin.id}`, { name: '   ' })
  t.equal(emptyName.statusCode, 400)
  t.equal(emptyName.json().error.message, 'Name is required.')
  const unknownField = await ann.api('PATCH', `/api/user/${acmeAdmin.id}`, { role: 'admin' })
  t.equal(unknownField.statusCode, 400)
  t.match(unknownField.json().error.message, /role/)
})

t.test('admins invite team members to their own owner; the setup link sets a password once', async (t) => {
  const author = await signedIn(acmeAuthor)
  t.equal((await author.get('/user/new')).statusCode, 403, 'authors cannot invite')
  const ann = await signedIn(acmeAdmin)
  await ann.get('/user/new')
  const res = await ann.postForm('/user/new', { name: 'Nia New', email: 'nia@example.test', role: 'viewer' })
  t.equal(res.statusCode, 303)
  const [nia] = await db.select().from(users).where(eq(users.email, 'nia@example.test'))
  t.equal(nia!.ownerId, acme)
  t.equal(nia!.role, 'viewer')
  t.equal(nia!.passwordHash, null, 'no password until the invitation is accepted')
  const mail = outbox().find((m) => JSON.stringify(m.to).includes('nia@example.test'))!
  const link = new URL(mail.link!).pathname
  t.match(link, /^\/password\/setup\//)
  const guest = new Agent(app)
  t.equal((await guest.get(link)).statusCode, 200)
  t.equal((await guest.postForm(link, { password: 'nia-secret-pw', confirm: 'nia-secret-pw' })).statusCode, 303)
  t.equal((await guest.get('/user/team')).statusCode, 200, 'setting the password signed Nia in')
  await new Agent(app).signIn('nia@example.test', 'nia-secret-pw')
  const reuse = await new Agent(app).postForm(link, { password: 'other-secret-pw', confirm: 'other-secret-pw' }, { page: '/login' })
  t.equal(reuse.statusCode, 400)

  const duplicate = await ann.postForm('/user/new', { name: 'Nia Again', email: 'NIA@example.test', role: 'author' })
  t.equal(duplicate.statusCode, 409)
  t.match(duplicate.body, 'Nia New is already a member of this team.')
  const forged = await ann.api('POST', '/api/user/create', { name: 'Spy', email: 'spy@example.test', role: 'admin', ownerId: globex })
  t.equal(forged.statusCode, 403, 'an owner admin can only invite into their own owner')
  t.equal((await db.select().from(users).where(eq(users.email, 'spy@example.test'))).length, 0)
})

t.test('the provider admin can add a user to any owner', async (t) => {
  const admin = await signedIn(providerAdmin)
  await admin.get('/admin/users/new')
  const res = await admin.postForm('/admin/users/new', { name: 'Gia Globex', email: 'gia@example.test', role: 'author', ownerId: globex })
  t.equal(res.statusCode, 303)
  const [gia] = await db.select().from(users).where(eq(users.email, 'gia@example.test'))
  t.equal(gia!.ownerId, globex)
  const bad = await admin.postForm('/admin/users/new', { name: 'Nobody', email: 'nobody@example.test', role: 'author', ownerId: 'no-such-owner' })
  t.equal(bad.statusCode, 400)
  t.match(bad.body, 'Owner does not exist.')
})

t.test('preferences: newPreferences JSON in a form field; data.preferences comes back', async (t) => {
  const art = await signedIn(acmeAuthor)
  const res = await art.request({
    method: 'POST', url: '/api/user/preferences',
    headers: { 'x-csrf-token': art.csrfToken, accept: 'application/json' },
    form: { newPreferences: JSON.stringify({ tz: 'Europe/Paris' }) },
  })
  t.equal(res.statusCode, 200)
  t.same(res.json(), { data: { preferences: { tz: 'Europe/Paris' } } })
  const [row] = await db.select().from(users).where(eq(users.id, acmeAuthor.id))
  t.same(row!.preferences, { tz: 'Europe/Paris' })
  const bad = await art.request({
    method: 'POST', url: '/api/user/preferences',
    headers: { 'x-csrf-token': art.csrfToken, accept: 'application/json' },
    form: { newPreferences: JSON.stringify({ tz: 'Mars/Olympus' }) },
  })
  t.equal(bad.statusCode, 400)
  t.match(bad.json().error.message, /tz must be an IANA time zone/)
})

t.test('external APIs are the owner’s: visitors are sent to sign in, other owners get 404, viewers cannot write', async (t) => {
  const anon = new Agent(app)
  t.equal((await anon.get('/api-manager')).headers.location, '/login?next=%2Fapi-manager')
  t.equal((await anon.api('GET', '/api/external-api/list', undefined, { csrf: false })).statusCode, 401)
  t.equal((await anon.api('GET', '/api/opengraph?url=https%3A%2F%2Fexample.org', undefined, { csrf: false })).statusCode, 401)
  const art = await signedIn(acmeAuthor)
  const created = await art.api('POST', '/api/external-api', { name: 'Acme rates', urlTemplate: 'https://api.example/rates' })
  t.equal(created.statusCode, 201)
  const id = created.json().data.id
  const gus = await signedIn(globexAuthor)
  t.equal((await gus.get(`/api-manager/${id}/edit`)).statusCode, 404)
  t.equal((await gus.api('GET', `/api/external-api/${id}/list-uses`)).statusCode, 404)
  t.equal((await gus.api('POST', `/api/external-api/${id}/send`, {})).statusCode, 404)
  const viewer = await createUser(db, { ownerId: acme, role: 'viewer' })
  const vic = await signedIn(viewer)
  t.equal((await vic.get(`/api-manager/${id}/edit`)).statusCode, 200, 'viewers read')
  t.equal((await vic.api('POST', `/api/external-api/${id}/delete`)).statusCode, 403)
  t.equal((await vic.api('POST', `/api/external-api/${id}/restore`)).statusCode, 403)
})

t.test('advice scenario pages: another owner sees none of them; a viewer reads them, is refused the forms, posts nothing', async (t) => {
  const acmeViewer = await createUser(db, { ownerId: acme, role: 'viewer' })
  const { set } = await retirementSet(db, acme, { name: 'Acme scenarios' })
  const author = await signedIn(acmeAuthor)
  const scenario = (await author.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Acme case', inputs: { Age: 70 } })).json().data
  const base = `/adviceset/${set.id}/advicescenario`
  const gus = await signedIn(globexAuthor)
  const viewer = await signedIn(acmeViewer)
  for (const path of ['index', 'new', `${scenario.id}/show`, `${scenario.id}/edit`, `${scenario.id}/copy`, `${scenario.id}/delete`]) {
    t.equal((await gus.get(`${base}/${path}`)).statusCode, 404, `other owner: ${path}`)
    // The forms are refused before they are shown (issue 25): a viewer could only lose what they typed.
    const formPage = path === 'new' || path.endsWith('/edit') || path.endsWith('/copy') || path.endsWith('/delete')
    t.equal((await viewer.get(`${base}/${path}`)).statusCode, formPage ? 403 : 200, `viewer ${formPage ? 'is refused' : 'reads'} ${path}`)
  }
  for (const path of ['new', `${scenario.id}/edit`, `${scenario.id}/copy`, `${scenario.id}/delete`, `${scenario.id}/restore`, 'test']) {
    t.equal((await viewer.postForm(`${base}/${path}`, { name: 'Viewer was here' }, { page: `${base}/index` })).statusCode, 403, `viewer posts ${path}`)
    t.equal((await gus.postForm(`${base}/${path}`, { name: 'Globex was here' }, { page: '/' })).statusCode, 404, `other owner posts ${path}`)
  }
  t.match((await author.api('GET', `/api/advicescenario/${scenario.id}`)).json().data, { name: 'Acme case', deletedAt: null }, 'nothing changed')
  t.same((await author.api('GET', `/api/advicescenario/adviceset/${set.id}`)).json().data.map((s: { name: string }) => s.name), ['Acme case'])
})

t.test('the tree builder: another owner sees nothing; a viewer reads and previews but saves no fork', async (t) => {
  const acmeViewer = await createUser(db, { ownerId: acme, role: 'viewer' })
  const { set } = await retirementSet(db, acme, { name: 'Acme tree' })
  const author = await signedIn(acmeAuthor)
  const scenario = (await author.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Tree case', inputs: { Age: 70 } })).json().data
  const tree = `/adviceset/${set.id}/advicescenario/tree`
  const gus = await signedIn(globexAuthor)
  const viewer = await signedIn(acmeViewer)
  t.equal((await gus.get(tree)).statusCode, 404, 'other owner: the page')
  t.equal((await gus.get(`${tree}?fork=${scenario.id}`)).statusCode, 404, 'other owner: a fork')
  t.equal((await viewer.get(`${tree}?fork=${scenario.id}`)).statusCode, 200, 'viewer reads')
  const fork = { fork: String(scenario.id), question: 'Age', 'input.Age': '30' }
  t.equal((await viewer.postForm(tree, { ...fork, action: 'preview' }, { page: tree })).statusCode, 200, 'viewer previews')
  t.equal((await viewer.postForm(tree, { ...fork, action: 'save', name: 'Viewer fork' }, { page: tree })).statusCode, 403, 'viewer cannot save')
  t.equal((await gus.postForm(tree, { ...fork, action: 'save', name: 'Globex fork' }, { page: '/' })).statusCode, 404, 'other owner cannot save')
  t.same((await author.api('GET', `/api/advicescenario/adviceset/${set.id}`)).json().data.map((s: { name: string }) => s.name), ['Tree case'], 'nothing saved')
})

t.test('keyword map pages are for admins of the owner; other owners get 404', async (t) => {
  const ann = await signedIn(acmeAdmin)
  const { set } = await retirementSet(db, acme, { name: 'Acme mapped' })
  const map = (await ann.api('POST', '/api/keywordmap', { name: 'Acme map', phrases: ['acme'], adviceSetId: set.id })).json().data
  const art = await signedIn(acmeAuthor)
  const gus = await signedIn(globexAuthor)
  const globexAdmin = await signedIn(await createUser(db, { ownerId: globex, role: 'admin' }))
  const anon = new Agent(app)
  t.equal((await anon.get('/admin/keywordMap')).headers.location, '/login?next=%2Fadmin%2FkeywordMap')
  t.equal((await anon.api('GET', '/api/keywordmap/index', undefined, { csrf: false })).statusCode, 401)
  for (const path of ['/admin/keywordMap', `/admin/keywordMap/${map.id}`]) {
    t.equal((await ann.get(path)).statusCode, 200, `admin: ${path}`)
    t.equal((await art.get(path)).statusCode, 403, `author: ${path}`)
    t.equal((await gus.get(path)).statusCode, 403, `other owner's author: ${path}`)
  }
  t.equal((await globexAdmin.get('/admin/keywordMap')).statusCode, 200, 'another admin has their own list')
  t.notMatch((await globexAdmin.get('/admin/keywordMap')).body, 'Acme map')
  t.equal((await globexAdmin.get(`/admin/keywordMap/${map.id}`)).statusCode, 404, 'another owner’s map does not exist for them')
  for (const path of [`/admin/keywordMap/${map.id}`, `/admin/keywordMap/${map.id}/delete`, `/admin/keywordMap/${map.id}/restore`]) {
    t.equal((await art.postForm(path, { name: 'Author was here' }, { page: '/' })).statusCode, 403, `author posts ${path}`)
    t.equal((await globexAdmin.postForm(path, { name: 'Globex was here' }, { page: '/' })).statusCode, 404, `other owner's admin posts ${path}`)
  }
  t.equal((await art.postForm('/admin/keywordMap', { name: 'Author map', phrases: 'x', adviceSetId: String(set.id) }, { page: '/' })).statusCode, 403)
  t.match((await ann.api('GET', `/api/keywordmap/${map.id}`)).json().data, { name: 'Acme map', deleted: false }, 'nothing changed')
})

t.test('the admin and operations area by role: support for provider admins, export and tags for admins, jobs for all', async (t) => {
  const acmeViewer = await createUser(db, { ownerId: acme, role: 'viewer', name: 'Vic Acme' })
  const cast = { providerAdmin, acmeAdmin, acmeAuthor, acmeViewer, globexAuthor }
  const expected: Record<string, Record<keyof typeof cast, number>> = {
    '/admin/support': { providerAdmin: 200, acmeAdmin: 403, acmeAuthor: 403, acmeViewer: 403, globexAuthor: 403 },
    '/admin/export': { providerAdmin: 200, acmeAdmin: 200, acmeAuthor: 403, acmeViewer: 403, globexAuthor: 403 },
    '/admin/tag': { providerAdmin: 200, acmeAdmin: 200, acmeAuthor: 403, acmeViewer: 403, globexAuthor: 403 },
    '/api/export/questions/data': { providerAdmin: 200, acmeAdmin: 200, acmeAuthor: 403, acmeViewer: 403, globexAuthor: 403 },
    '/api/job': { providerAdmin: 200, acmeAdmin: 200, acmeAuthor: 200, acmeViewer: 200, globexAuthor: 200 },
  }
  for (const [who, user] of Object.entries(cast) as Array<[keyof typeof cast, typeof acmeAdmin]>) {
    const agent = await signedIn(user)
    for (const [url, statuses] of Object.entries(expected)) {
      const res = url.startsWith('/api/') ? await agent.api('GET', url) : await agent.get(url)
      t.equal(res.statusCode, statuses[who], `${who} ${url}`)
    }
  }
  const anon = new Agent(app)
  for (const url of Object.keys(expected)) {
    t.equal((url.startsWith('/api/') ? await anon.api('GET', url, undefined, { csrf: false }) : await anon.get(url)).statusCode, url.startsWith('/api/') ? 401 : 302, `anonymous ${url}`)
  }
})

t.test('the testing tools (generated branches, compare, summary) are readers\' pages: other owners get 404', async (t) => {
  const set = await createAdviceSetRow(db, { ownerId: acme, name: 'Private testing set' })
  await buildRule(db, set.id, 'Only rule', [{ type: 'advice', headline: 'Hello' }])
  await publishVersion(db, { adviceSetId: set.id })
  const acmeViewer = await createUser(db, { ownerId: acme, role: 'viewer', name: 'Vic Viewer' })
  const base = `/adviceset/${set.id}/advicescenario`
  const pages = [`${base}/gen-branches`, `${base}/gen-branches/compare`, `${base}/gen-summary`]
  const apis: Array<[string, string, unknown]> = [
    ['POST', '/api/adviceset/generate-branches', { adviceSetId: set.id }],
    ['POST', '/api/adviceset/generate-branches/compare', { adviceSetId: set.id }],
    ['GET', `/api/adviceset/generate-summary?adviceSetId=${set.id}`, undefined],
  ]
  for (const [who, user] of [['author', acmeAuthor], ['viewer', acmeViewer]] as const) {
    const agent = await signedIn(user)
    for (const url of pages) t.equal((await agent.get(url)).statusCode, 200, `${who} reads ${url}`)
    for (const [method, url, body] of apis) t.equal((await agent.api(method, url, body)).statusCode, 200, `${who}: ${method} ${url}`)
  }
  const gus = await signedIn(globexAuthor)
  for (const url of pages) t.equal((await gus.get(url)).statusCode, 404, `another owner: ${url}`)
  for (const [method, url, body] of apis) t.equal((await gus.api(method, url, body)).statusCode, 404, `another owner: ${method} ${url}`)
})
