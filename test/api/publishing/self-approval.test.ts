// Issue 23 defect 11: a team of one can publish. Four-eyes approval stays the default; the version page says how to
// get a second approver (invite a colleague) when the team has none; an admin of the owner (or a provider admin) may
// allow self-approval for that owner, audited; a version approved by its submitter records it and the gate shows it.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent, type Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule } from '../../helpers/rules.ts'
import { activityRows } from '../../helpers/activity.ts'
import { owners, versions } from '../../../src/db/schema/index.ts'
import { FOUR_EYES_MESSAGE } from '../../../src/services/publishing/workflow.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
await createOwner(db, { id: 'TF', name: 'Provider' })
const soloOwner = await createOwner(db, { name: 'Solo Advice' })
const solo = await createUser(db, { ownerId: soloOwner, role: 'admin', name: 'Sam Solo' })
const teamOwner = await createOwner(db, { name: 'Pair Advice' })
const [teamAdmin, teamAdmin2, teamAuthor, outsider, providerAdmin] = await Promise.all([
  createUser(db, { ownerId: teamOwner, role: 'admin' }), createUser(db, { ownerId: teamOwner, role: 'admin' }),
  createUser(db, { ownerId: teamOwner, role: 'author' }), createUser(db, { role: 'admin' }), createUser(db, { ownerId: 'TF', role: 'admin', name: 'Pat Provider' }),
])
const as = {
  solo: await signedInAgent(app, solo), teamAdmin: await signedInAgent(app, teamAdmin), teamAuthor: await signedInAgent(app, teamAuthor),
  outsider: await signedInAgent(app, outsider), provider: await signedInAgent(app, providerAdmin),
}

async function publish(agent: Agent, body: Record<string, unknown>) {
  const res = await agent.api('POST', '/api/adviceset/publish', body)
  return { status: res.statusCode, body: res.json() }
}
/** A set of `ownerId` with one version, created and submitted by `agent`. */
async function submitted(ownerId: string, agent: Agent) {
  const set = await createAdviceSet(db, { ownerId, name: 'Mortgage affordability' })
  await buildRule(db, set.id, 'Main', [{ type: 'advice', headline: 'Save more' }])
  const created = await publish(agent, { action: 'create', adviceSetId: set.id })
  await publish(agent, { action: 'submit', versionId: created.body.data.id })
  return { set, versionId: created.body.data.id as number, page: `/adviceset/${set.id}/publish/versions/${created.body.data.id}` }
}
const setting = (agent: Agent, ownerId: string, allowed: unknown) => agent.api('PATCH', `/api/owner/${ownerId}`, { selfApprovalAllowed: allowed })

t.test('new owners keep four-eyes approval', async (t) => {
  const [row] = await db.select().from(owners).where(eq(owners.id, soloOwner))
  t.equal(row!.selfApprovalAllowed, false)
  t.equal((await as.solo.api('GET', `/api/owner/${soloOwner}`)).json().data.selfApprovalAllowed, false, 'the owner says so')
})

t.test('a team of one is told how to get an approver', async (t) => {
  const { versionId, page } = await submitted(soloOwner, as.solo)
  const own = await publish(as.solo, { action: 'approve', versionId })
  t.equal(own.status, 403)
  t.equal(own.body.error.message, FOUR_EYES_MESSAGE)
  const shown = await as.solo.get(page)
  t.match(shown.body, /<p class="gate-approver"[^>]*>Nobody else in Solo Advice can approve this version/, 'the gate says nobody else can approve')
  t.match(shown.body, '<a href="/user/new">Invite a colleague as an admin</a>', 'and links to inviting a colleague')
  t.match(shown.body, '<a href="/user/team#publishing">allow self-approval</a>', 'or to the setting that allows self-approval')
  const pair = await submitted(teamOwner, as.teamAuthor)
  t.notMatch((await as.teamAdmin.get(pair.page)).body, 'class="gate-approver"', 'a team with another admin is not told')
})

t.test('only the owner\'s admins and provider admins change the setting, and it is audited', async (t) => {
  t.equal((await setting(as.teamAuthor, teamOwner, true)).statusCode, 403, 'an author cannot')
  t.equal((await setting(as.outsider, soloOwner, true)).statusCode, 404, 'another owner\'s admin does not see the owner')
  const bad = await setting(as.solo, soloOwner, 'yes')
  t.equal(bad.statusCode, 400)
  t.match(bad.json().error.message, 'selfApprovalAllowed')
  const on = await setting(as.solo, soloOwner, true)
  t.equal(on.statusCode, 200)
  t.match(on.json().data, { selfApprovalAllowed: true, selfApprovalChangedBy: solo.id, selfApprovalChangedByName: 'Sam Solo' })
  const rows = await activityRows(db, 'owner', soloOwner)
  t.equal(rows.length, 1)
  t.match(rows[0], { action: 'update', actorId: solo.id, ownerId: soloOwner, before: { selfApprovalAllowed: false }, after: { selfApprovalAllowed: true } })
  t.match((await as.solo.get('/activity')).body, /Self-approval allowed[\s\S]*?No[\s\S]*?Yes/, 'the activity log says what changed')
  t.equal((await setting(as.provider, teamOwner, false)).statusCode, 200, 'a provider admin may')
})

t.test('the team page: admins change the setting there', async (t) => {
  const page = await as.solo.get('/user/team')
  t.match(page.body, /<section class="card" id="publishing"/)
  t.match(page.body, /<input type="checkbox" name="selfApprovalAllowed" value="true" checked>/, 'the box shows the setting')
  t.match(page.body, /Self-approval is allowed since <time datetime="[^"]+" data-moment title="[^"]+">[^<]+<\/time> \(by Sam Solo\)/)
  const off = await as.solo.postForm('/user/team/settings', {})
  t.equal(off.statusCode, 303)
  t.equal(off.headers.location, '/user/team#publishing')
  t.match((await as.solo.get('/user/team')).body, 'Self-approval is off: versions are approved by an admin other than the person who submitted them.')
  t.equal((await as.teamAuthor.postForm('/user/team/settings', { selfApprovalAllowed: 'true' })).statusCode, 403, 'authors cannot')
  t.notMatch((await as.teamAuthor.get('/user/team')).body, 'name="selfApprovalAllowed"', 'and see no form')
  t.equal((await as.solo.postForm('/user/team/settings', { selfApprovalAllowed: 'true' })).statusCode, 303)
  const [row] = await db.select().from(owners).where(eq(owners.id, soloOwner))
  t.equal(row!.selfApprovalAllowed, true)
})

t.test('with self-approval allowed the submitter approves, and the version records it', async (t) => {
  const { versionId, page } = await submitted(soloOwner, as.solo)
  const before = await as.solo.get(page)
  t.match(before.body, 'This team allows self-approval', 'the gate says the submitter may approve')
  const approved = await publish(as.solo, { action: 'approve', versionId })
  t.equal(approved.status, 200, JSON.stringify(approved.body))
  const [row] = await db.select().from(versions).where(eq(versions.id, versionId))
  t.match(row!.selfApproval, { allowedBy: solo.id, allowedByName: 'Sam Solo' })
  t.match(row!.selfApproval!.allowedAt, /^\d{4}-\d{2}-\d{2}T/)
  const history = await activityRows(db, 'version', versionId)
  t.match(history.at(-1)!.after, { transition: 'approve', selfApproval: { allowedBy: solo.id, allowedByName: 'Sam Solo' } }, 'the history records it')
  const shown = await as.solo.get(page)
  t.match(shown.body, /Approved by its submitter \(self-approval allowed by Sam Solo on [^)]+\)/, 'the page shows it')
  t.equal((await publish(as.solo, { action: 'publish', versionId })).status, 200, 'and a team of one publishes')

  const pair = await submitted(teamOwner, as.teamAdmin)
  t.equal((await publish(as.teamAdmin, { action: 'approve', versionId: pair.versionId })).status, 403, 'another owner keeps four-eyes')
  t.equal((await publish(as.provider, { action: 'approve', versionId: pair.versionId })).status, 200)
  const [other] = await db.select().from(versions).where(eq(versions.id, pair.versionId))
  t.equal(other!.selfApproval, null, 'a four-eyes approval records none')
  void teamAdmin2
})
