// Issue 14 part 7, the review gate: the version page shows every scenario on this version and on the published one
// (changed first), coverage by generated branches (with "Save as scenario" for the branches not reached; a large
// version generated in the background with progress) and the static checks; approving over failing scenarios or
// static errors is refused without acknowledgeRisks (400 naming it, page and API) and accepted with it, which the
// version's history records. The gate stores no runs.
import t from 'tap'
import { and, eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent, type Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { retirementSet } from '../../helpers/scenarios.ts'
import { buildRule } from '../../helpers/rules.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { buildWideSet, createBranchVariables } from '../../helpers/branch-sets.ts'
import { activity, adviceScenarioRuns, ruleNodes, versions } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const acme = await createOwner(db, { name: 'Acme' })
const admin = await signedInAgent(app, await createUser(db, { ownerId: acme, role: 'admin' }))
const author = await signedInAgent(app, await createUser(db, { ownerId: acme, role: 'author' }))
const viewer = await signedInAgent(app, await createUser(db, { ownerId: acme, role: 'viewer' }))
const stranger = await signedInAgent(app, await createUser(db, { role: 'admin' }))

const { set, ids } = await retirementSet(db, acme, { name: 'Pensions' })
const publish = (agent: Agent, body: Record<string, unknown>) => agent.api('POST', '/api/adviceset/publish', body)
const scenario = async (name: string, inputs: Record<string, unknown>) => (await author.api('POST', '/api/advicescenario', { adviceSetId: set.id, name, inputs })).json().data
const retired = await scenario('Retired at 70', { Age: 70 })
const bold = await scenario('Bold at 40', { Age: 40, Risk: 'high' })
const published = await publishVersion(db, { adviceSetId: set.id })

/** A new version of the set as stored now, submitted by the author: ready for an admin to approve. */
async function submittedVersion(): Promise<{ id: number; number: number }> {
  const created = (await publish(author, { action: 'create', adviceSetId: set.id })).json().data
  t.equal((await publish(author, { action: 'submit', versionId: created.id })).statusCode, 200)
  return created
}

async function history(versionId: number) {
  return db.select().from(activity).where(and(eq(activity.entityType, 'version'), eq(activity.entityId, String(versionId)))).orderBy(activity.id)
}

// The draft now retires people from 75: the scenario at 70 no longer gets "Retire".
await db.update(ruleNodes).set({ expression: '{{Age}} >= 75' }).where(eq(ruleNodes.id, Number(ids.old)))
const risky = await submittedVersion()
const page = `/adviceset/${set.id}/publish/versions/${risky.id}`

t.test('the version page shows the gate: scenarios here and published (changed first), coverage, static checks', async (t) => {
  const runsBefore = (await db.select().from(adviceScenarioRuns)).length
  const res = await admin.get(page)
  t.equal(res.statusCode, 200)
  t.match(res.body, '<section class="review-gate is-risky" id="review" aria-labelledby="review-heading" data-risky="true">')
  t.match(res.body, '1 / 2</span> scenarios pass · 1 failing')
  t.match(res.body, `1</span> outcome changed from version ${published.number}`)
  t.match(res.body, 'This version has 1 failing scenario. Approving it needs an explicit confirmation')
  const rows = [...res.body.matchAll(/<tr data-scenario-id="(\d+)" data-status="(\w+)"( data-changed="true")?/g)].map((m) => [Number(m[1]), m[2], Boolean(m[3])])
  t.same(rows, [[retired.id, 'fail', true], [bold.id, 'pass', false]], 'the changed (and failing) scenario first')
  t.match(res.body, /Missing advice: Retire/, 'what differs, in words')
  t.match(res.body, /Published version 1<\/th>/)
  t.match(res.body, /data-coverage-state="ready"/)
  t.match(res.body, /<strong data-coverage-percent="[\d.]+">[\d.]+%<\/strong> of the \d+ outcome branch(es)? reached by the 2 saved scenarios/)
  t.match(res.body, /data-advice-covered="\d+\/\d+"><strong>Advice covered: \d+ of \d+<\/strong>/, 'advice items covered, beside branches')
  t.match(res.body, /<a class="button" href="\/adviceset\/\d+\/advicescenario\/new\?inputs=[^"]+">Save as scenario<\/a>/, 'branches not reached can be saved as scenarios')
  t.match(res.body, 'No problems found in this version.')
  t.match(res.body, 'name="acknowledgeRisks" value="true"', 'the approve form asks for the confirmation')
  t.equal((await db.select().from(adviceScenarioRuns)).length, runsBefore, 'looking at the gate stores no runs')
  t.equal((await author.get(`/adviceset/${set.id}/advicescenario/index`)).body.match(/<tr data-scenario-id="\d+" data-status="notRun">/g)?.length, 2, 'the list still says not run')
  t.equal((await viewer.get(page)).statusCode, 200, 'the team reads it')
  t.equal((await stranger.get(page)).statusCode, 404, 'another owner does not')
  t.match((await admin.get(`/adviceset/${set.id}/publish/versions`)).body, `href="/adviceset/${set.id}/publish/versions/${risky.id}#review" data-action="approve">Review and approve</a>`, 'the list sends approvers to the gate')
})

t.test('the API refuses a risky approval without acknowledgeRisks, and records it with', async (t) => {
  t.equal((await publish(viewer, { action: 'approve', versionId: risky.id })).statusCode, 403, 'viewers are refused before the gate')
  t.equal((await publish(author, { action: 'approve', versionId: risky.id })).statusCode, 403)
  t.equal((await publish(stranger, { action: 'approve', versionId: risky.id })).statusCode, 404)
  const refused = await publish(admin, { action: 'approve', versionId: risky.id })
  t.equal(refused.statusCode, 400)
  t.equal(refused.json().error.field, 'acknowledgeRisks')
  t.match(refused.json().error.message, 'acknowledgeRisks: this version has 1 failing scenario. Approving it anyway needs an explicit confirmation')
  const wrongType = await publish(admin, { action: 'approve', versionId: risky.id, acknowledgeRisks: 'yes' })
  t.equal(wrongType.statusCode, 400)
  t.match(wrongType.json().error.message, /acknowledgeRisks/)
  t.equal((await db.select().from(versions).where(eq(versions.id, risky.id)))[0]!.state, 'review', 'still in review')
})

t.test('the page refuses the approval until the box is ticked; the history then says so', async (t) => {
  const refused = await admin.postForm(`${page}/action`, { action: 'approve', next: page })
  t.equal(refused.statusCode, 400)
  t.match(refused.body, /<p class="field-error" id="acknowledge-error" role="alert">acknowledgeRisks: this version has 1 failing scenario\./)
  t.equal((await db.select().from(versions).where(eq(versions.id, risky.id)))[0]!.state, 'review')
  const approved = await admin.postForm(`${page}/action`, { action: 'approve', next: page, acknowledgeRisks: 'true', notes: 'Retirement age moves to 75 on purpose' })
  t.equal(approved.statusCode, 303)
  t.equal((await db.select().from(versions).where(eq(versions.id, risky.id)))[0]!.state, 'approved')
  const row = (await history(risky.id)).at(-1)!
  t.match(row.after, {
    transition: 'approve', comment: 'Retirement age moves to 75 on purpose',
    review: { acknowledgedRisks: true, risky: true, risks: '1 failing scenario', scenarios: { total: 2, pass: 1, fail: 1, error: 0 }, staticErrors: 0 },
  })
  const after = await admin.get(page)
  t.match(after.body, /<span class="version-review is-acknowledged" data-acknowledged="true">Approved despite 1 failing scenario: the risks were acknowledged\.<\/span>/)
})

t.test('a clean version is approved without a confirmation; the gate’s findings are recorded', async (t) => {
  await db.update(ruleNodes).set({ expression: '{{Age}} >= 65' }).where(eq(ruleNodes.id, Number(ids.old)))
  const clean = await submittedVersion()
  const res = await admin.get(`/adviceset/${set.id}/publish/versions/${clean.id}`)
  t.match(res.body, 'data-risky="false"')
  t.notMatch(res.body, 'name="acknowledgeRisks"')
  t.equal((await publish(admin, { action: 'approve', versionId: clean.id })).statusCode, 200)
  t.match((await history(clean.id)).at(-1)!.after, { transition: 'approve', review: { acknowledgedRisks: false, risky: false, scenarios: { total: 2, pass: 2 } } })
  t.match((await admin.get(`/adviceset/${set.id}/publish/versions/${clean.id}`)).body, 'Review gate: 2 of 2 scenarios passed, no static errors, no branch ends in an error.')
})

t.test('static errors need the confirmation too', async (t) => {
  await buildRule(db, set.id, 'Broken', [{ type: 'condition', expression: '{{Nowhere}} > 1', children: [{ type: 'advice', headline: 'Never' }] }])
  const broken = await submittedVersion()
  const res = await admin.get(`/adviceset/${set.id}/publish/versions/${broken.id}`)
  t.match(res.body, /<li class="gate-issue gate-issue-error"><span class="gate-issue__severity">Error<\/span> <span class="muted">Broken:<\/span>[^<]*Nowhere/)
  const refused = await publish(admin, { action: 'approve', versionId: broken.id })
  t.equal(refused.statusCode, 400)
  t.match(refused.json().error.message, /this version has 1 static error/)
  t.equal((await publish(admin, { action: 'approve', versionId: broken.id, acknowledgeRisks: true })).statusCode, 200)
  t.match((await history(broken.id)).at(-1)!.after, { review: { acknowledgedRisks: true, staticErrors: 1 } })
})

t.test('coverage reaches 100% once every branch not reached is saved as a scenario', async (t) => {
  const version = (await publish(author, { action: 'create', adviceSetId: set.id })).json().data
  const versionPage = `/adviceset/${set.id}/publish/versions/${version.id}`
  const before = await admin.get(versionPage)
  const links = [...before.body.matchAll(/href="(\/adviceset\/\d+\/advicescenario\/new\?inputs=[^"]+)">Save as scenario/g)].map((m) => m[1]!.replaceAll('&amp;', '&'))
  t.ok(links.length > 0, 'some branches are not reached')
  for (const link of links) {
    const inputs = JSON.parse(new URL(link, 'http://x').searchParams.get('inputs')!)
    t.equal((await author.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: `Branch ${JSON.stringify(inputs)}`, inputs })).statusCode, 201)
  }
  const after = await admin.get(versionPage)
  t.match(after.body, /<strong data-coverage-percent="100">100%<\/strong>/)
  t.match(after.body, 'Every outcome branch is reached by a saved scenario.')
})

t.test('a large version’s branches are generated in the background, with progress, and kept', async (t) => {
  // Another team: the wide set's dictionary has an Age of its own.
  const wideOwner = await createOwner(db, { name: 'Wide' })
  const wideAdmin = await signedInAgent(app, await createUser(db, { ownerId: wideOwner, role: 'admin' }))
  const wideAuthor = await signedInAgent(app, await createUser(db, { ownerId: wideOwner, role: 'author' }))
  await createBranchVariables(db, wideOwner)
  const wide = await buildWideSet(db, wideOwner, { calls: 10, bands: 15, name: 'Wide pensions' })
  t.ok(wide.paths > 200, `${wide.paths} paths: more than a request walks`)
  const created = (await publish(wideAuthor, { action: 'create', adviceSetId: wide.set.id })).json().data
  const versionPage = `/adviceset/${wide.set.id}/publish/versions/${created.id}`
  const pending = await wideAdmin.get(versionPage)
  t.match(pending.body, 'data-coverage-state="pending"', 'a GET starts nothing')
  t.match(pending.body, `This version has ${wide.paths.toLocaleString('en-US')} paths`)
  const started = await wideAdmin.postForm(`${versionPage}/coverage`, {})
  t.equal(started.statusCode, 303)
  t.equal(started.headers.location, `${versionPage}#coverage`)
  const running = await wideAdmin.get(versionPage)
  const props = /data-island="task-progress" data-props="([^"]+)"/.exec(running.body)
  if (/data-coverage-state="running"/.test(running.body)) {
    const taskProps = JSON.parse(props![1]!.replaceAll('&quot;', '"'))
    t.match(taskProps, { resultsUrl: `${versionPage}/coverage`, unit: 'paths' }, 'the progress island follows the task and fetches the coverage fragment')
    // Each poll is a request; between them the event loop turns so the task's next slice can run (no timers).
    while ((await wideAdmin.api('GET', taskProps.statusUrl)).json().data.state === 'running') await new Promise((resolve) => setImmediate(resolve))
  }
  const fragment = await wideAdmin.get(`${versionPage}/coverage`)
  t.equal(fragment.statusCode, 200)
  t.match(fragment.body, /^\s*<section class="gate-coverage" id="coverage"[^>]*data-fragment="version-coverage" data-coverage-state="ready"/)
  t.match(fragment.body, /<strong data-coverage-percent="0">0%<\/strong> of the \d+ outcome branches reached by the 0 saved scenarios/)
  t.match((await wideAuthor.get(versionPage)).body, 'data-coverage-state="ready"', 'kept for everyone once generated')
  t.equal((await stranger.postForm(`${versionPage}/coverage`, {}, { page: '/' })).statusCode, 404)
})
