// Issue 27 point 3: replay at the review gate. 1,000 recorded answers of the published version, a version under review
// that changes one condition: the gate counts exactly the outcomes that change (computed here independently from the
// answers), groups them by kind with example records (their page shows before and after side by side), counts the
// answers that needed personal values as not replayable, and an approval over changed outcomes needs the explicit
// confirmation, recorded with the numbers. The same replay of the working draft is on the compare page; a bigger one
// runs as a job with progress; a cancelled replay stops between pages.
import t from 'tap'
import { and, eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { retirementSet } from '../../helpers/scenarios.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { recordAnswers } from '../../helpers/decisions.ts'
import { waitForJob } from '../../helpers/jobs.ts'
import { activity, ruleNodes } from '../../../src/db/schema/index.ts'
import { replayRecorded, type ReplaySummary } from '../../../src/services/decisions/replay-batch.ts'
import { compileSource } from '../../../src/services/scenarios/runs.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const owner = await createOwner(db, { name: 'Acme' })
const admin = await signedInAgent(app, await createUser(db, { ownerId: owner, role: 'admin' }))
const author = await signedInAgent(app, await createUser(db, { ownerId: owner, role: 'author' }))
const { set, ids } = await retirementSet(db, owner, { name: 'Pensions' })
const published = await publishVersion(db, { adviceSetId: set.id })
const key = await createApiKey(db, { ownerId: owner })

// 1,000 answers as version 1 gave them: ages 20 to 119, some without a risk (asked next), every 7th with its risk
// personal (kept only as a hash).
const answers = Array.from({ length: 1000 }, (_, i) => {
  const inputs: Record<string, unknown> = { Age: 20 + (i % 100) }
  if (i % 3 !== 0) inputs.Risk = i % 2 ? 'high' : 'low'
  return { inputs, personal: i % 7 === 0 && inputs.Risk !== undefined }
})
await recordAnswers(db, { ownerId: owner, adviceSetId: set.id, versionId: published.id, versionNumber: published.number, apiKeyId: key.key.id }, published,
  answers.map((a) => ({ inputs: a.inputs, ...(a.personal ? { personal: 'Risk' } : {}) })), Date.now() - 60 * 60 * 1000)

// The version under review retires people from 70: ages 65 to 69 lose "Retire" (and are not asked their risk either).
await db.update(ruleNodes).set({ expression: '{{Age}} >= 70' }).where(eq(ruleNodes.id, Number(ids.old)))
const created = (await author.api('POST', '/api/adviceset/publish', { action: 'create', adviceSetId: set.id })).json().data as { id: number; number: number }
t.equal((await author.api('POST', '/api/adviceset/publish', { action: 'submit', versionId: created.id })).statusCode, 200)
const page = `/adviceset/${set.id}/publish/versions/${created.id}`

// Counted independently of the replay: an age from 65 to 69 changes; a personal risk matters below 65 only.
const expectedChanged = answers.filter((a) => (a.inputs.Age as number) >= 65 && (a.inputs.Age as number) < 70).length
const expectedNotReplayable = answers.filter((a) => a.personal && (a.inputs.Age as number) < 65).length

t.test('the gate replays the last 1,000 recorded answers: exactly the expected changes, grouped, with examples', async (t) => {
  t.ok(expectedChanged > 0 && expectedNotReplayable > 0, `${expectedChanged} changes and ${expectedNotReplayable} not replayable expected`)
  const res = await admin.get(page)
  t.equal(res.statusCode, 200)
  t.match(res.body, `data-replayed="1000" data-changed="${expectedChanged}" data-not-replayable="${expectedNotReplayable}"`)
  t.match(res.body, `<strong data-replay-changed="${expectedChanged}">${expectedChanged}</strong> of 1,000 recorded answers would change`)
  const kinds = [...res.body.matchAll(/<tr data-replay-kind="(\w+)"><th scope="row">[^<]+<\/th><td>(\d+)<\/td>/g)].map((m) => [m[1], Number(m[2])])
  t.same(kinds, [['adviceRemoved', expectedChanged]], 'one group: advice removed, every changed answer in it')
  const example = /href="(\/adviceset\/\d+\/decisions\/[0-9a-f-]+\?against=\d+)#decision-replay-heading" data-replay-example/.exec(res.body)?.[1]
  t.ok(example, 'the group links an example record')
  const record = await admin.get(example!)
  t.equal(record.statusCode, 200, record.statusCode === 200 ? 'the record page' : record.body.slice(0, 600))
  t.match(record.body, 'data-replay-target="other" data-identical="false"')
  t.match(record.body, `On version ${created.number}, the answer would differ`)
  t.match(record.body, /<td data-side="before">[\s\S]*Retire[\s\S]*<td data-side="after">(?![\s\S]*Retire<\/li>[\s\S]*<\/table>)/, 'before gives Retire, after does not')
  t.match(record.body, `<th scope="col">As recorded (version ${published.number})</th><th scope="col">On version ${created.number}</th>`)
})

t.test('the API replays the same while you wait, and the working draft on the compare page', async (t) => {
  const res = await author.api('POST', '/api/adviceset/replay', { adviceSetId: set.id, target: created.id })
  t.equal(res.statusCode, 200)
  const summary = res.json().data as ReplaySummary
  t.match(summary, { replayed: 1000, changed: expectedChanged, notReplayable: expectedNotReplayable, baseline: { number: published.number }, target: { versionId: created.id } })
  t.same(summary.groups.map((g) => [g.kind, g.count]), [['adviceAdded', 0], ['adviceRemoved', expectedChanged], ['statusChanged', 0], ['newError', 0], ['errorGone', 0]])
  t.equal((await author.api('POST', '/api/adviceset/replay', { adviceSetId: set.id, target: created.id, count: 5000 })).statusCode, 400, 'more than 1,000 needs a job')
  t.equal((await author.api("POST", "/api/adviceset/replay", { adviceSetId: set.id, target: published.id })).statusCode, 409, "not on the published version itself")
  const compare = await author.get(`/adviceset/${set.id}/advicescenario/gen-branches/compare`)
  t.match(compare.body, `data-replayed="1000" data-changed="${expectedChanged}"`, 'the draft has the same change')
  t.match(compare.body, /\?run=draft#decision-replay-heading" data-replay-example/, 'its examples run the record on the draft')
})

t.test('approving over changed outcomes needs the confirmation, recorded with the numbers', async (t) => {
  const refused = await admin.api('POST', '/api/adviceset/publish', { action: 'approve', versionId: created.id })
  t.equal(refused.statusCode, 400)
  t.match(refused.json().error, { field: 'acknowledgeRisks', message: new RegExp(`${expectedChanged} recorded answers of 1000 replayed whose outcome changes`) })
  const approved = await admin.api('POST', '/api/adviceset/publish', { action: 'approve', versionId: created.id, acknowledgeRisks: true })
  t.equal(approved.statusCode, 200)
  const [entry] = await db.select().from(activity).where(and(eq(activity.entityType, 'version'), eq(activity.entityId, String(created.id)), eq(activity.action, 'update'))).orderBy(activity.id)
    .then((rows) => rows.filter((r) => (r.after as { transition?: string }).transition === 'approve'))
  t.match(entry!.after, { review: { acknowledgedRisks: true, replay: { replayed: 1000, changed: expectedChanged, notReplayable: expectedNotReplayable } } })
  const history = (await admin.get(page)).body
  t.match(history, `<span data-replay-review="${expectedChanged}/1000">Replay: ${expectedChanged} of 1000 recorded answers changed, ${expectedNotReplayable} not replayable.</span>`)
})

t.test('a bigger replay runs as a job with progress; the gate then shows its result', async (t) => {
  const form = await admin.postForm(`${page}/replay`, { count: '100000' }, { page })
  t.equal(form.statusCode, 303)
  const jobs = (await admin.api('GET', `/api/job?subject=${encodeURIComponent(`adviceset:${set.id}:replay:version:${created.id}`)}`)).json().data as Array<{ id: number; title: string }>
  t.match(jobs[0]!.title, `Replay up to 100,000 recorded answers of version ${published.number} on version ${created.number}`)
  const done = await waitForJob(db, jobs[0]!.id, (j) => j.state === 'completed' || j.state === 'failed')
  t.match(done, { state: 'completed', progress: 100, progressText: '1,000 of 1,000 recorded answers replayed' })
  t.match(done.result, { asked: 100000, replayed: 1000, changed: expectedChanged, resultUrl: `${page}#replay` })
  const after = (await admin.get(page)).body
  t.match(after, 'The latest replay of published version', 'the gate shows the job\'s replay')
  t.match(after, 'Show the result')
  const bad = await admin.postForm(`${page}/replay`, { count: '200000' }, { page })
  t.equal(bad.statusCode, 400)
  t.match(bad.body, 'count: give a whole number of recorded answers from 1 to 100,000.')
})

t.test('a replay of fewer answers than are recorded reads and counts only those', async (t) => {
  const target = await compileSource(db, set, 'draft')
  const totals: number[] = []
  const summary = await replayRecorded(app.deps, set, published, target, { limit: 250, onProgress: (_done, total) => { totals.push(total) } })
  t.equal(summary.replayed, 250)
  t.same([...new Set(totals)], [250], 'the progress counts to the 250 asked, of the 1,000 recorded')
})

t.test('a cancelled replay stops between pages and says so', async (t) => {
  const target = await compileSource(db, set, 'draft')
  let reports = 0
  const summary = await replayRecorded(app.deps, set, published, target, { limit: 1000, onProgress: () => { reports++ }, isCancelled: () => reports >= 2 })
  t.equal(summary.cancelled, true)
  t.ok(summary.replayed > 0 && summary.replayed < 1000, `${summary.replayed} replayed before it stopped`)
})
