// Issue 14 acceptance (property): on random advice sets from the branch generator's property test, stored as rows,
// every generated branch saved as a scenario (its expected outcome taken from a run with expectedFromRun, checking
// the answered variables too) passes when the scenarios are run, and each scenario's run reaches its branch's path.
import t from 'tap'
import fc from 'fast-check'
import { buildTestApp } from '../../helpers/app.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, createVariable, type NodeSpec } from '../../helpers/rules.ts'
import { OPTIONS_Y, randomAdviceSet } from '../../fixtures/engine/random-sets.ts'
import { findUserById } from '../../../src/db/queries/users.ts'
import { compileAdviceSet, evaluate, generateBranches, pathReached, type NodeModel } from '../../../src/engine/index.ts'
import { actorForUser } from '../../../src/services/accounts/users.ts'
import { buildAdviceSetModel } from '../../../src/services/authoring/advice-set-model.ts'
import { expectedFromRun } from '../../../src/services/scenarios/outcome.ts'
import { runScenario, runScenarios } from '../../../src/services/scenarios/runs.ts'
import { createScenario } from '../../../src/services/scenarios/scenarios.ts'

const RUN_AS_OF = '2026-01-15'
const NOW = new Date(`${RUN_AS_OF}T00:00:00Z`)

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db, { name: 'Property' })
const user = await createUser(db, { ownerId, role: 'author' })
const actor = actorForUser((await findUserById(db, user.id))!)
await createVariable(db, ownerId, 'X', { dataType: 'number' })
await createVariable(db, ownerId, 'Y', { dataType: 'select', options: OPTIONS_Y })
await createVariable(db, ownerId, 'B', { dataType: 'boolean' })

function specOf(node: NodeModel): NodeSpec {
  return { type: node.type, expression: node.expression ?? null, headline: node.headline ?? null, children: node.children.map(specOf) }
}

t.test('every generated branch, saved as a scenario and run, passes', async (t) => {
  const stats = { sets: 0, scenarios: 0 }
  await fc.assert(
    fc.asyncProperty(randomAdviceSet, async (random) => {
      const set = await createAdviceSet(db, { ownerId })
      for (const r of random.rules) await buildRule(db, set.id, r.name, r.nodes.map(specOf))
      const model = await buildAdviceSetModel(db, set.id)
      const compiled = compileAdviceSet(model)
      const { branches } = generateBranches(model, { now: NOW })
      for (const [i, branch] of branches.entries()) {
        const result = evaluate(compiled, branch.inputs, { render: false, now: NOW })
        const expected = expectedFromRun(result, { variables: Object.keys(branch.inputs) })
        await createScenario(app.deps, actor, { adviceSetId: set.id, name: `Branch ${i + 1}`, inputs: branch.inputs, runAsOf: RUN_AS_OF, expected })
        const traced = runScenario(compiled, { inputs: branch.inputs, runAsOf: RUN_AS_OF, expected }, { now: new Date(), trace: true })
        const leaf = compiled.nodeById.get(branch.path.at(-1)!)!
        if (!pathReached(traced.result!.trace!, branch.path, leaf.type === 'condition')) return false
      }
      const batch = await runScenarios(app.deps, actor, { adviceSetId: set.id, source: 'draft' })
      stats.sets += 1
      stats.scenarios += batch.results.length
      return batch.results.length === branches.length && batch.counts.pass === branches.length
    }),
    { numRuns: 40 },
  )
  t.comment(`${stats.scenarios} scenarios from ${stats.sets} random sets`)
  t.ok(stats.scenarios > stats.sets, 'sets give several branches')
})
