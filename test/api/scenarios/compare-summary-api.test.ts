// Issue 14 parts 3 and 4 through /api: compare (draft against the published version by default; one edited condition
// changes exactly the paths through it) and generate-summary (JSON, and the markdown download).
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInTeam } from '../../helpers/team.ts'
import { buildCoverSet, createBranchVariables } from '../../helpers/branch-sets.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { updateNode } from '../../../src/db/queries/rule-nodes.ts'
import type { Agent } from '../../helpers/agent.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { ownerId, agent, viewerAgent, strangerAgent } = await signedInTeam(app, db)
await createBranchVariables(db, ownerId)

const compare = (who: Agent, body: Record<string, unknown>) => who.api('POST', '/api/adviceset/generate-branches/compare', body)

interface Row { when: string; whenBefore: string | null; ends: string; reason: string; inputs: Record<string, unknown>; base: { advice: Array<{ headline: string }> } | null; next: { advice: Array<{ headline: string }> } | null; saveHref: string | null }

t.test('compare: nothing published yet is named; the team compares, others get 404', async (t) => {
  const { set } = await buildCoverSet(db, ownerId, 'Unpublished')
  const res = await compare(agent, { adviceSetId: set.id })
  t.equal(res.statusCode, 400)
  t.equal(res.json().error.field, 'base')
  t.match(res.json().error.message, 'base: nothing of this advice set is published yet')
  await publishVersion(db, { adviceSetId: set.id })
  t.equal((await compare(agent, { adviceSetId: set.id })).statusCode, 200)
  t.equal((await compare(viewerAgent, { adviceSetId: set.id })).statusCode, 200, 'viewers read')
  t.equal((await compare(strangerAgent, { adviceSetId: set.id })).statusCode, 404)
  const unknown = await compare(agent, { adviceSetId: set.id, base: '999999' })
  t.equal(unknown.statusCode, 400)
  t.equal(unknown.json().error.field, 'base')
  t.match(unknown.json().error.message, 'base: there is no version 999999 of this advice set.')
  const badNext = await compare(agent, { adviceSetId: set.id, next: 'tomorrow' })
  t.equal(badNext.json().error.field, 'next')
  const badLimit = await compare(agent, { adviceSetId: set.id, limit: -1 })
  t.equal(badLimit.json().error.field, 'limit')
})

t.test('compare: one condition edited in the draft shows exactly the paths through it as changed', async (t) => {
  const cover = await buildCoverSet(db, ownerId, 'Edited')
  await publishVersion(db, { adviceSetId: cover.set.id })
  const unchanged = (await compare(agent, { adviceSetId: cover.set.id, runAsOf: '2026-01-15' })).json().data
  t.same([unchanged.changed, unchanged.added, unchanged.removed], [[], [], []], 'the draft is what was published')
  t.equal(unchanged.base.label, 'Version 1 (published)')
  t.equal(unchanged.next.label, 'Working draft')

  await updateNode(db, cover.conditions.get('{{Age}} >= 65')!.id, { expression: '{{Age}} >= 70', updatedBy: null })
  const data = (await compare(agent, { adviceSetId: cover.set.id, runAsOf: '2026-01-15' })).json().data
  const changed: Row[] = data.changed
  t.same(changed.map((row) => row.ends), ['Advice: Senior cover'], 'only the path under the edited condition')
  t.same([data.added, data.removed], [[], []])
  const row = changed[0]!
  t.equal(row.when, 'Age is at least 70')
  t.equal(row.whenBefore, 'Age is at least 65')
  t.equal(row.inputs.Age, 65, 'the answers that show it')
  t.ok(row.base!.advice.some((a) => a.headline === 'Senior cover'), 'published: senior cover at 65')
  t.notOk(row.next!.advice.some((a) => a.headline === 'Senior cover'), 'draft: not at 65')
  t.match(row.reason, /before the change but not after/)
  t.match(row.saveHref, new RegExp(`^/adviceset/${cover.set.id}/advicescenario/new\\?inputs=`))
  t.ok(data.unchanged > 0)
})

t.test('compare: any two versions; added and removed paths', async (t) => {
  const cover = await buildCoverSet(db, ownerId, 'Versions')
  const v1 = await publishVersion(db, { adviceSetId: cover.set.id })
  await updateNode(db, cover.byHeadline.get('Regional office nearby')!.id, { deletedAt: new Date(), updatedBy: null })
  const v2 = await publishVersion(db, { adviceSetId: cover.set.id })
  const data = (await compare(agent, { adviceSetId: cover.set.id, base: String(v1.id), next: String(v2.id) })).json().data
  t.same(data.removed.map((row: Row) => row.ends), ['Advice: Regional office nearby'])
  t.ok(data.removed[0].inputs.Region === 'North' || data.removed[0].inputs.Region === 'East')
  const back = (await compare(agent, { adviceSetId: cover.set.id, base: String(v2.id), next: String(v1.id) })).json().data
  t.same(back.added.map((row: Row) => row.ends), ['Advice: Regional office nearby'])
  t.same(data.changed, [])
})

t.test('summary: questions, options, advice with conditions, variables and formulas; markdown download', async (t) => {
  const cover = await buildCoverSet(db, ownerId, 'Summary set')
  const json = await agent.api('GET', `/api/adviceset/generate-summary?adviceSetId=${cover.set.id}`)
  t.equal(json.statusCode, 200)
  const { markdown, html, filename } = json.json().data
  t.equal(filename, 'summary-set-draft-summary.md')
  t.match(markdown, /^# Summary set\n\n_Working draft, summarised on \d{4}-\d{2}-\d{2}\._/)
  t.match(markdown, /1\. \*\*How old are you\?\*\* — Number, answers \{\{Age\}\}/)
  t.match(markdown, /\*\*Where do you live\?\*\* — Select, answers \{\{Region\}\}\n {3}- Options: “North”, “South”, “East”/)
  t.match(markdown, /### Smoker rate\n\nRule: “Age gate”\n\n\*\*Given when:\*\* Age is at least 18 and Age is less than 65 and Smoker is Yes\./)
  t.match(markdown, /### Senior cover\n\n> Cover after 65 has a lower limit\./)
  t.match(markdown, /## Variables\n\n- \{\{Age\}\} \(Number\) — Age in whole years/)
  t.match(markdown, /## Formulas\n\n- \[\[Monthly_Cost\]\] = `\{\{Age\}\} \* 10` — What cover costs a month/)
  t.notMatch(markdown, /\{\{Savings\}\}/, 'only the variables the set uses')
  t.match(html, /<h2>Questions<\/h2>/)
  t.notMatch(html, /<script/i)

  const download = await agent.request({ method: 'GET', url: `/api/adviceset/generate-summary?adviceSetId=${cover.set.id}&format=markdown`, headers: { accept: '*/*' } })
  t.equal(download.statusCode, 200)
  t.equal(download.headers['content-disposition'], 'attachment; filename="summary-set-draft-summary.md"')
  t.match(download.headers['content-type'], /^text\/markdown/)
  t.equal(download.body, markdown)

  const posted = await agent.api('POST', '/api/adviceset/generate-summary', { adviceSetId: cover.set.id, format: 'markdown' })
  t.equal(posted.body, markdown, 'POST gives the same')
  t.equal((await viewerAgent.api('GET', `/api/adviceset/generate-summary?adviceSetId=${cover.set.id}`)).statusCode, 200)
  t.equal((await strangerAgent.api('GET', `/api/adviceset/generate-summary?adviceSetId=${cover.set.id}`)).statusCode, 404)
  const badSource = await agent.api('GET', `/api/adviceset/generate-summary?adviceSetId=${cover.set.id}&source=123456`)
  t.equal(badSource.statusCode, 400)
  t.equal(badSource.json().error.field, 'source')
  const badFormat = await agent.api('GET', `/api/adviceset/generate-summary?adviceSetId=${cover.set.id}&format=pdf`)
  t.equal(badFormat.statusCode, 400)
  t.equal(badFormat.json().error.field, 'format')
})
