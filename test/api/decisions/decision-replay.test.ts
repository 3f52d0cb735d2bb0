// Issue 26, reproducibility as a property: on generated sets (dictionary entries partly the set's own, a formula, a
// called rule) and random answers, some left out so rules end incomplete, every recorded outcome equals a fresh
// run of the record on the version it names. And a replay on the working draft says what a change would alter.
import t from 'tap'
import fc from 'fast-check'
import { eq, inArray } from 'drizzle-orm'
import { decisionRecords, ruleNodes } from '../../../src/db/schema/index.ts'
import { replayDecision } from '../../../src/services/decisions/replay.ts'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { randomAdviceSet } from '../../fixtures/engine/random-sets.ts'
import { answers, shape, storeGeneratedSet } from '../../helpers/generated-sets.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db, { name: 'Acme' })
const authorUser = await createUser(db, { ownerId, role: 'author' })
const author = await signedInAgent(app, authorUser)
const actor = { userId: authorUser.id, ownerId, role: authorUser.role, impersonatorId: null }
const { secret } = await createApiKey(db, { ownerId, name: 'Production' })

async function ask(adviceSetId: number, inputs: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: `/api/advice/${adviceSetId}`, headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, payload: JSON.stringify({ inputs }) })
}

async function records(ids: string[]) {
  await app.partner.recorder.flush()
  return db.select().from(decisionRecords).where(inArray(decisionRecords.id, ids))
}

t.test('a recorded outcome equals a fresh run on the recorded version', async (t) => {
  let replayed = 0
  let withAdvice = 0
  let incomplete = 0
  await fc.assert(
    fc.asyncProperty(randomAdviceSet, shape, fc.array(fc.tuple(answers, fc.subarray(['X', 'Y', 'B'])), { minLength: 3, maxLength: 3 }), async (model, s, tries) => {
      const { set, names, inputsOf } = await storeGeneratedSet(db, ownerId, author, model, s)
      await publishVersion(db, { adviceSetId: set.id })
      const ids: string[] = []
      for (const [a, leftOut] of tries) {
        const inputs = inputsOf(a)
        for (const name of leftOut) delete inputs[names[name as 'X' | 'Y' | 'B']]
        const res = await ask(set.id, inputs)
        if (res.statusCode !== 200) return false
        ids.push(String(res.headers['decision-id']))
      }
      const rows = await records(ids)
      if (rows.length !== ids.length) return false
      for (const record of rows) {
        const replay = await replayDecision(app.deps, actor, record, 'version')
        if (!replay.identical) {
          t.comment(`not identical: ${replay.differences.join(' ')}`)
          return false
        }
        replayed += 1
        if (record.adviceNodeIds.length > 0) withAdvice += 1
        if (record.hasErrors || record.status === 'question') incomplete += 1
      }
      return true
    }),
    { numRuns: 10 },
  )
  t.ok(replayed >= 30, `${replayed} records replayed identically`)
  t.ok(withAdvice > 0 && incomplete > 0, `among them ${withAdvice} with advice and ${incomplete} that a left-out answer made incomplete`)
})

t.test('on the working draft, a replay names what a change would alter', async (t) => {
  const { set, inputsOf } = await storeGeneratedSet(db, ownerId, author, { rules: [{ nodes: [] }] }, { ownX: true, ownY: true, ownB: true, ownF: true, calledOnly: true })
  await publishVersion(db, { adviceSetId: set.id })
  const res = await ask(set.id, inputsOf({ X: 10, Y: 'a', B: true }))
  const [record] = await records([String(res.headers['decision-id'])])
  t.same(record!.adviceNodeIds.length, 1, 'F = 21 > 9: "Big F" is given')
  t.ok((await replayDecision(app.deps, actor, record!, 'draft')).identical, 'the draft is still the version: identical')
  await db.delete(ruleNodes).where(eq(ruleNodes.id, Number(record!.adviceNodeIds[0])))
  const changed = await replayDecision(app.deps, actor, record!, 'draft')
  t.notOk(changed.identical, 'after the advice node is deleted from the draft: different')
  t.match(changed.differences, [`Node ${record!.adviceNodeIds[0]} (advice) is no longer given.`])
  t.ok((await replayDecision(app.deps, actor, record!, 'version')).identical, 'the version still reproduces it')
})
