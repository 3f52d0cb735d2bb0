// Issue 26, the owner's decision-record settings: on the team page (admins) and PATCH /api/owner/:id/decisions — Off /
// Best effort / Durable and the days kept (1–3650, a bad number names the field), audited and readable on /activity;
// records the best-effort buffer dropped are shown with why; a change counts from the next answer on.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { owners } from '../../../src/db/schema/index.ts'
import { activityRows } from '../../helpers/activity.ts'
import { query, RICH_ANSWERS } from '../delivery/advice-api-setup.ts'
import { decisionsTeam } from './decisions-team.ts'

const { f, db, admin, provider, as, call } = await decisionsTeam(t)
const settings = async () => (await db.select().from(owners).where(eq(owners.id, f.ownerId)))[0]!
const decisionsSection = (html: string) => /<section class="card" id="decision-records"[\s\S]*?<\/section>/.exec(html)?.[0] ?? ''

t.test('the team page shows the section; only admins get the form', async (t) => {
  const page = await as.admin.get('/user/team')
  t.equal(page.statusCode, 200)
  const section = decisionsSection(page.body)
  t.match(section, /Decision records: <strong>Best effort<\/strong>, kept for 365 days/, 'the default')
  t.match(section, /<input type="radio" name="decisionMode" value="best_effort" checked>/, 'Best effort is chosen')
  t.match(section, /Keep records for N days/)
  t.match(section, /name="decisionRetentionDays" type="number" value="365"/)
  t.notMatch(section, /records? dropped/, 'nothing dropped, nothing said')
  const authorSection = decisionsSection((await as.author.get('/user/team')).body)
  t.match(authorSection, /Best effort/, 'an author reads the setting')
  t.notMatch(authorSection, /<form/, 'but gets no form')
})

t.test('an admin changes mode and retention on the page; audited and readable on /activity', async (t) => {
  const res = await as.admin.postForm('/user/team/decisions', { decisionMode: 'durable', decisionRetentionDays: '30' }, { page: '/user/team' })
  t.equal(res.statusCode, 303)
  t.equal(res.headers.location, '/user/team#decision-records')
  const row = await settings()
  t.equal(row.decisionMode, 'durable')
  t.equal(row.decisionRetentionDays, 30)
  const audit = (await activityRows(db, 'owner', f.ownerId)).at(-1)!
  t.equal(audit.actorId, admin.id)
  t.match(audit.before, { decisionMode: 'best_effort', decisionRetentionDays: 365 })
  t.match(audit.after, { decisionMode: 'durable', decisionRetentionDays: 30 })
  const log = (await as.admin.get('/activity')).body
  t.match(log, /Decision records[\s\S]*?Best effort[\s\S]*?Durable/, 'the log reads the modes as the page names them')
  t.match(log, /Keep records \(days\)[\s\S]*?365[\s\S]*?30/)
  t.match(decisionsSection((await as.admin.get('/user/team')).body), /Decision records: <strong>Durable<\/strong>, kept for 30 days/)
})

t.test('a bad number of days is refused naming the field; nothing changes', async (t) => {
  for (const days of ['0', '3651', 'abc', '2.5', '']) {
    const res = await as.admin.postForm('/user/team/decisions', { decisionMode: 'off', decisionRetentionDays: days })
    t.equal(res.statusCode, 400, `"${days}"`)
    t.match(res.body, /decisionRetentionDays: keep records for a whole number of days from 1 to 3650\./, `"${days}": the message names the field`)
    t.match(res.body, new RegExp(`name="decisionRetentionDays" type="number" value="${days.replace('.', '\\.')}"`), `"${days}": what was typed stays`)
  }
  const row = await settings()
  t.equal(row.decisionMode, 'durable', 'the mode sent with it was not saved either')
  t.equal(row.decisionRetentionDays, 30)
  const bad = await as.admin.postForm('/user/team/decisions', { decisionMode: 'sometimes', decisionRetentionDays: '30' })
  t.equal(bad.statusCode, 400)
  t.match(bad.body, /decisionMode: one of off, best_effort, durable\./)
})

t.test('authors and viewers are refused; another owner is not found', async (t) => {
  for (const [who, agent] of [['author', as.author], ['viewer', as.viewer]] as const) {
    t.equal((await agent.postForm('/user/team/decisions', { decisionMode: 'off', decisionRetentionDays: '5' }, { page: '/user/team' })).statusCode, 403, `${who}: page`)
    t.equal((await agent.api('PATCH', `/api/owner/${f.ownerId}/decisions`, { decisionMode: 'off' })).statusCode, 403, `${who}: API`)
  }
  t.equal((await as.outsider.api('PATCH', `/api/owner/${f.ownerId}/decisions`, { decisionMode: 'off' })).statusCode, 404, 'another owner’s admin')
  t.equal((await as.outsider.api('GET', `/api/owner/${f.ownerId}/decisions`)).statusCode, 404)
  t.equal((await settings()).decisionMode, 'durable', 'nothing changed')
})

t.test('the API: read, change, bad days named; a provider admin may change any owner', async (t) => {
  const read = await as.viewer.api('GET', `/api/owner/${f.ownerId}/decisions`)
  t.equal(read.statusCode, 200)
  t.match(read.json().data, { ownerId: f.ownerId, decisionMode: 'durable', decisionRetentionDays: 30, decisionsDropped: 0 })
  const bad = await as.admin.api('PATCH', `/api/owner/${f.ownerId}/decisions`, { decisionRetentionDays: 0 })
  t.equal(bad.statusCode, 400)
  t.match(bad.json().error.message, /^decisionRetentionDays: /)
  const changed = await as.provider.api('PATCH', `/api/owner/${f.ownerId}/decisions`, { decisionMode: 'best_effort', decisionRetentionDays: 90 })
  t.equal(changed.statusCode, 200)
  t.match(changed.json().data, { decisionMode: 'best_effort', decisionRetentionDays: 90 })
  t.equal((await activityRows(db, 'owner', f.ownerId)).at(-1)!.actorId, provider.id)
})

t.test('a change counts from the next answer on', async (t) => {
  t.ok((await call({ url: `/api/advice/${f.set.id}?${query(RICH_ANSWERS)}` })).headers['decision-id'], 'recorded')
  t.equal((await as.admin.api('PATCH', `/api/owner/${f.ownerId}/decisions`, { decisionMode: 'off' })).statusCode, 200)
  t.equal((await call({ url: `/api/advice/${f.set.id}?${query(RICH_ANSWERS)}` })).headers['decision-id'], undefined, 'off at once (API)')
  await as.admin.postForm('/user/team/decisions', { decisionMode: 'best_effort', decisionRetentionDays: '90' })
  t.ok((await call({ url: `/api/advice/${f.set.id}?${query(RICH_ANSWERS)}` })).headers['decision-id'], 'on again at once (page)')
})

t.test('records the buffer dropped are shown, with when and why', async (t) => {
  await db.update(owners).set({ decisionsDropped: 1234, decisionsDroppedAt: new Date('2026-11-20T10:00:00Z') }).where(eq(owners.id, f.ownerId))
  const section = decisionsSection((await as.author.get('/user/team')).body)
  t.match(section, /data-decisions-dropped="1234"/)
  t.match(section, /1,234 records dropped<\/strong> \(last on <time[^>]*datetime="2026-11-20T10:00:00\.000Z"/)
  t.match(section, /the buffer was full and these answers were given without a record/)
  t.match((await as.viewer.api('GET', `/api/owner/${f.ownerId}/decisions`)).json().data, { decisionsDropped: 1234, decisionsDroppedAt: '2026-11-20T10:00:00.000Z' })
})
