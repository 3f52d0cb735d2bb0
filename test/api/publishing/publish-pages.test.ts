// Issue 7 publisher pages through their forms: create, submit, approve as another user, publish; refused actions are
// shown disabled with the reason; a version's page lists what changed against the published one and its history;
// publish/assign creates and renames audiences and assigns versions.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent, type Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule } from '../../helpers/rules.ts'
import { rules, versions } from '../../../src/db/schema/index.ts'
import { servedVersion } from '../../../src/services/publishing/versions.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db)
const authorUser = await createUser(db, { ownerId, role: 'author', name: 'Ann Author' })
const adminUser = await createUser(db, { ownerId, role: 'admin', name: 'Ada Admin' })
const author = await signedInAgent(app, authorUser)
const admin = await signedInAgent(app, adminUser)
const outsider = await signedInAgent(app, await createUser(db, { role: 'admin' }))
const set = await createAdviceSet(db, { ownerId, name: 'Pensions', isPublic: true })
const { rule } = await buildRule(db, set.id, 'Eligibility', [{ type: 'advice', headline: 'You may retire' }])

const base = `/adviceset/${set.id}/publish`
async function act(agent: Agent, versionId: number, action: string, notes = '') {
  return agent.postForm(`${base}/versions/${versionId}/action`, { action, notes, next: `${base}/versions/${versionId}` }, { page: `${base}/versions` })
}
async function latestVersion() {
  const rows = await db.select().from(versions).where(eq(versions.adviceSetId, set.id)).orderBy(versions.number)
  return rows.at(-1)!
}
function rowOf(html: string, versionId: number): string {
  return new RegExp(`<tr data-version-id="${versionId}"[\\s\\S]*?</tr>`).exec(html)?.[0] ?? ''
}

t.test('submit, approve as another user, publish', async (t) => {
  const empty = await author.get(base)
  t.equal(empty.statusCode, 200)
  t.match(empty.body, /No versions yet/)
  t.match(empty.body, /Four-eyes rule/, 'the page says who may do what')

  const created = await author.postForm(`${base}/create`, { notes: 'First release' })
  t.equal(created.statusCode, 303)
  t.equal(created.headers.location, `${base}/versions`)
  const v = await latestVersion()
  t.match(v, { number: 1, state: 'draft', notes: 'First release', createdBy: authorUser.id })
  const list = await author.get(`${base}/versions`)
  t.match(list.body, /Version 1 created as a draft/, 'the flash confirms it')
  t.match(rowOf(list.body, v.id), /data-action="submit"(?! disabled)/)

  t.equal((await act(author, v.id, 'submit')).statusCode, 303)
  const afterSubmit = rowOf((await author.get(`${base}/versions`)).body, v.id)
  t.match(afterSubmit, /In review/)
  t.match(afterSubmit, /<button type="button" disabled aria-describedby="why-\d+-approve" data-action="approve">Approve<\/button>\s*<span class="hint" id="why-\d+-approve">Approve: only an admin/, 'authors see approve disabled, with the reason')
  t.match(afterSubmit, /Approve: only an admin of this advice set’s team or a provider admin may do this\./, 'the reason names everyone who may (provider admins too)')
  t.notMatch(afterSubmit, /set(&#39;|'|’)s owner/, 'not "of this advice set\'s owner" alone')

  await act(author, v.id, 'approve')
  t.equal((await latestVersion()).state, 'review', 'a refused form changes nothing')
  t.match((await author.get(`${base}/versions`)).body, /Approve refused/)

  t.equal((await act(admin, v.id, 'approve', 'Looks right')).statusCode, 303)
  t.equal((await latestVersion()).state, 'approved')
  const versionPage = (await admin.get(`${base}/versions/${v.id}`)).body
  t.match(versionPage, /Approve: version 1 is now approved/)
  t.match(versionPage, /Approved\s+by Ada Admin[\s\S]*?<blockquote class="version-comment">Looks right<\/blockquote>/, 'the approval and its comment are in the history')
  t.match(versionPage, /Submitted for review\s+by Ann Author/)
  t.match(versionPage, /data-action="publish"/)

  await act(admin, v.id, 'publish')
  t.equal((await servedVersion(db, set.id, { environment: 'production', audienceId: null }))?.id, v.id)
  const published = (await admin.get(`${base}/versions`)).body
  t.match(published, /<dd data-served="production"><a href="[^"]+">Version 1<\/a>/)
  t.match(rowOf(published, v.id), /Published/)
})

t.test('the submitter is told about the four-eyes rule', async (t) => {
  await admin.postForm(`${base}/create`, { notes: 'By the admin' })
  const v = await latestVersion()
  await act(admin, v.id, 'submit')
  t.match(rowOf((await admin.get(`${base}/versions`)).body, v.id), /id="why-\d+-approve">Four-eyes rule: a version must be approved by someone other than the person who submitted it\./)
})

t.test('a version’s page shows what changed against the published one, and its history', async (t) => {
  await buildRule(db, set.id, 'Tax', [{ type: 'advice', headline: 'Pay less tax' }])
  await db.update(rules).set({ name: 'Eligibility rules' }).where(eq(rules.id, rule.id))
  await author.postForm(`${base}/create`, { notes: 'Adds tax advice' })
  const v = await latestVersion()
  const page = await author.get(`${base}/versions/${v.id}`)
  t.equal(page.statusCode, 200)
  t.match(page.body, /Compared with the published <a href="[^"]+">version 1<\/a>/)
  t.match(page.body, /<ul class="changes" data-changes="rules-added">\s*<li>Tax<\/li>/)
  t.match(page.body, /<ul class="changes" data-changes="rules-changed">\s*<li>Eligibility rules\s*<dl class="change-fields">\s*<div data-field="Name"><dt>Name<\/dt><dd><span class="change-before"><span class="change-label">Before:<\/span> <del>Eligibility<\/del>/, 'a changed rule with its name before and after')
  t.match(page.body, /<ul class="changes" data-changes="nodes-added">\s*<li>Advice: Pay less tax <span class="muted">in Tax<\/span>/)
  t.notMatch(page.body, /data-changes="nodes-removed"/)
  t.match(page.body, /Created\s+by Ann Author/)
  t.equal((await outsider.get(`${base}/versions/${v.id}`)).statusCode, 404, 'other owners do not see the versions of a public set')
  t.equal((await outsider.get(base)).statusCode, 404)
  t.equal((await author.get(`/adviceset/${set.id}/publish/versions/999999`)).statusCode, 404)
})

t.test('publish/assign: audiences and their versions', async (t) => {
  const forAuthor = await author.get(`${base}/assign`)
  t.equal(forAuthor.statusCode, 200)
  t.match(forAuthor.body, /Only admins of this advice set’s owner can assign versions/)
  t.notMatch(forAuthor.body, /Create audience/)

  await admin.postForm(`${base}/audience`, { name: 'Banks', description: '' }, { page: `${base}/assign` })
  let page = (await admin.get(`${base}/assign`)).body
  t.match(page, /Audience “Banks” created/)
  const audienceId = Number(/data-audience-id="(\d+)"/.exec(page)![1])
  t.match(page, /<td data-gets>Version 1 <span class="muted">\(published\)<\/span>/)

  await admin.postForm(`${base}/audience/${audienceId}`, { name: 'Lenders' })
  const first = (await db.select().from(versions).where(eq(versions.adviceSetId, set.id)).orderBy(versions.number))[0]!
  t.equal((await admin.postForm(`${base}/assign`, { audienceId: String(audienceId), versionId: String(first.id) })).statusCode, 303)
  page = (await admin.get(`${base}/assign`)).body
  t.match(page, /<th scope="row">Lenders<\/th>/)
  t.match(page, /<td data-gets>Version 1 <span class="muted">\(assigned\)<\/span>/)
  t.equal((await servedVersion(db, set.id, { environment: 'production', audienceId }))?.id, first.id)

  const draft = await latestVersion()
  await admin.postForm(`${base}/assign`, { audienceId: String(audienceId), versionId: String(draft.id) })
  t.match((await admin.get(`${base}/assign`)).body, /Not assigned[\s\S]*has not been approved/)
})

t.test('restore from the version page', async (t) => {
  const first = (await db.select().from(versions).where(eq(versions.adviceSetId, set.id)).orderBy(versions.number))[0]!
  const res = await author.postForm(`${base}/versions/${first.id}/restore`, {}, { page: `${base}/versions/${first.id}` })
  t.equal(res.statusCode, 303)
  t.equal(res.headers.location, `/adviceset/${set.id}/show`)
  const show = await author.get(`/adviceset/${set.id}/show`)
  t.match(show.body, /Version 1 restored into the working draft: 1 rule, 1 node\./)
  t.match(show.body, /href="\/adviceset\/\d+\/publish">Publish<\/a>/, 'the advice set links its publish page')
  t.match((await author.get(`${base}/versions/${first.id}`)).body, /Restored into the working draft\s+by Ann Author/, 'the version’s history records it')
  const log = await admin.get('/activity?days=1')
  t.equal(log.statusCode, 200, 'the owner’s activity page shows version and audience rows')
})
