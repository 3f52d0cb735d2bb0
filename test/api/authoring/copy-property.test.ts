// Issue 24 defect 2, as a property: on generated advice sets whose dictionary entries are partly the set's own and
// partly the owner's, with a formula and a called rule, a copy within the owner and a transfer of that copy to
// another owner give the same outcome as the original for random answers.
import t from 'tap'
import fc from 'fast-check'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent, type Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { randomAdviceSet } from '../../fixtures/engine/random-sets.ts'
import { answers, shape, storeGeneratedSet } from '../../helpers/generated-sets.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db, { name: 'Acme' })
const author = await signedInAgent(app, await createUser(db, { ownerId, role: 'author' }))
const newOwner = await createOwner(db, { name: 'Globex' })
const newcomer = await signedInAgent(app, await createUser(db, { ownerId: newOwner, role: 'author' }))
await createOwner(db, { id: 'TF', name: 'Advice Studio' })
const providerAdmin = await signedInAgent(app, await createUser(db, { ownerId: 'TF', role: 'admin' }))

/** A run's outcome without ids: advice headlines and texts, error codes, the question it stopped at. */
async function outcome(agent: Agent, adviceSetId: number, inputs: Record<string, unknown>) {
  const res = await agent.api('POST', '/api/rule/debug', { adviceSetId, inputs })
  if (res.statusCode !== 200) return { status: res.statusCode }
  const result = res.json().data.result as { advice: Array<{ headline: string; text: string }>; errors: Array<{ code: string }>; currentFocus?: { variable: string } }
  return { advice: result.advice.map((a) => [a.headline, a.text]), errors: result.errors.map((e) => e.code), focus: result.currentFocus?.variable ?? null }
}

t.test('a copy and a transfer give the same outcome as the original', async (t) => {
  let compared = 0
  await fc.assert(
    fc.asyncProperty(randomAdviceSet, shape, fc.array(answers, { minLength: 3, maxLength: 3 }), async (model, s, tries) => {
      const { set, inputsOf } = await storeGeneratedSet(db, ownerId, author, model, s)
      const copy = await author.api('POST', '/api/adviceset/copy', { id: set.id })
      if (copy.statusCode !== 201) return false
      const copyId = copy.json().data.id as number
      const originals = await Promise.all(tries.map((a) => outcome(author, set.id, inputsOf(a))))
      for (const [i, a] of tries.entries()) {
        if (JSON.stringify(await outcome(author, copyId, inputsOf(a))) !== JSON.stringify(originals[i])) return false
      }
      const transfer = await providerAdmin.api('POST', '/api/adviceset/transfer', { id: copyId, ownerId: newOwner })
      if (transfer.statusCode !== 200) return false
      for (const [i, a] of tries.entries()) {
        if (JSON.stringify(await outcome(newcomer, copyId, inputsOf(a))) !== JSON.stringify(originals[i])) return false
        compared += 1
      }
      return true
    }),
    { numRuns: 8 },
  )
  t.ok(compared >= 24, `${compared} answers compared on the original, its copy and the transferred copy`)
})
