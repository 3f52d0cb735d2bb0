// Issue 26, the record page beyond the record: the answer as the partner got it (rendered again from the record on its
// version), the record's path drawn on the version's rule tree, "Run again on this version" (identical) and "Run on the
// working draft" (what would differ).
import t from 'tap'
import { eq } from 'drizzle-orm'
import { decisionRecords, ruleNodes } from '../../../src/db/schema/index.ts'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createUser } from '../../helpers/factories.ts'
import { partnerCall, partnerFixture, query, RICH_ANSWERS } from '../delivery/advice-api-setup.ts'

const ctx = await buildTestApp(t)
const f = await partnerFixture(ctx)
const { db } = f
const call = partnerCall(ctx, f.production.secret)
const team = await signedInAgent(ctx.app, await createUser(db, { ownerId: f.ownerId, role: 'author', name: 'Ann Author' }))

const answer = await call({ url: `/api/advice/${f.set.id}?${query(RICH_ANSWERS)}`, accept: 'application/vnd.advicestudio.json+text' })
const given = answer.json().data.advice as Array<{ nodeId: string; headline: string; text: string }>
const decisionId = String(answer.headers['decision-id'])
await ctx.app.partner.recorder.flush()
const [record] = await db.select().from(decisionRecords).where(eq(decisionRecords.id, decisionId))
const page = `/adviceset/${f.set.id}/decisions/${decisionId}`

t.test('the answer as given, and the path on the tree', async (t) => {
  const res = await team.get(page)
  t.equal(res.statusCode, 200)
  const section = res.body.slice(res.body.indexOf('The answer as given'), res.body.indexOf('decision-replay-heading'))
  for (const item of given) {
    t.match(section, `data-advice-node="${item.nodeId}"`, `item ${item.nodeId} is shown`)
    t.match(section, item.headline, 'with the headline the partner got')
    t.match(section, item.text, 'and its text, rendered in the content type asked for (text)')
  }
  const tree = res.body.slice(res.body.indexOf('The path on the rule tree'))
  const item = record!.outcome.items.find((i) => i.path.length > 0)!
  for (const condition of item.path) {
    t.match(tree, new RegExp(`id="debug-node-${condition}" class="debug-node is-visited"[^>]*data-visited="true"`), `condition ${condition} on the path is marked as held`)
    t.match(tree, new RegExp(`id="debug-node-${condition}"[^]*?= true`), 'with its value true')
  }
  t.match(tree, new RegExp(`id="debug-node-${item.nodeId}" class="debug-node is-visited"`), 'the item it led to is marked reached')
  t.match(tree, /class="debug-node is-skipped"/, 'nodes off the path are shown as not reached')
})

t.test('run again on the version: identical; on the draft: the difference named', async (t) => {
  const again = await team.get(`${page}?run=version`)
  t.equal(again.statusCode, 200)
  t.match(again.body, /data-replay-target="version" data-identical="true"/)
  t.match(again.body, `<strong>Identical.</strong> Run again on version ${f.version.number}, the same inputs give the same answer for the same reasons.`)

  const draftSame = await team.get(`${page}?run=draft`)
  t.match(draftSame.body, /data-replay-target="draft" data-identical="true"/, 'the draft is still the version')

  const removed = given[0]!.nodeId
  await db.delete(ruleNodes).where(eq(ruleNodes.id, Number(removed)))
  const draft = await team.get(`${page}?run=draft`)
  t.match(draft.body, /data-replay-target="draft" data-identical="false"/)
  t.match(draft.body, 'On the working draft, the answer would differ')
  t.match(draft.body, `Node ${removed} (advice) is no longer given.`)
  t.match((await team.get(`${page}?run=version`)).body, /data-identical="true"/, 'the version still gives what the record says')

  t.equal((await team.get(`${page}?run=sideways`)).statusCode, 400, 'an unknown run is refused')
})
