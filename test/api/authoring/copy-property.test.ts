// Issue 24 defect 2, as a property: on generated advice sets whose dictionary entries are partly the set's own and
// partly the owner's, with a formula and a called rule, a copy within the owner and a transfer of that copy to
// another owner give the same outcome as the original for random answers.
import t from 'tap'
import fc from 'fast-check'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent, type Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { buildRule, type NodeSpec } from '../../helpers/rules.ts'
import { insertEntity } from '../../../src/db/queries/entities.ts'
import { ENTITY_TYPES } from '../../../src/engine/index.ts'
import type { NodeModel } from '../../../src/engine/model.ts'
import { OPTIONS_Y, randomAdviceSet } from '../../fixtures/engine/random-sets.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerId = await createOwner(db, { name: 'Acme' })
const author = await signedInAgent(app, await createUser(db, { ownerId, role: 'author' }))
const newOwner = await createOwner(db, { name: 'Globex' })
const newcomer = await signedInAgent(app, await createUser(db, { ownerId: newOwner, role: 'author' }))
await createOwner(db, { id: 'TF', name: 'Advice Studio' })
const providerAdmin = await signedInAgent(app, await createUser(db, { ownerId: 'TF', role: 'admin' }))

/** Which entries are the set's own (the rest are the owner's), and whether the called rule runs only when called. */
type Shape = { ownX: boolean; ownY: boolean; ownB: boolean; ownF: boolean; calledOnly: boolean }
type Answers = { X: number; Y: string; B: boolean }
const shape: fc.Arbitrary<Shape> = fc.record({ ownX: fc.boolean(), ownY: fc.boolean(), ownB: fc.boolean(), ownF: fc.boolean(), calledOnly: fc.boolean() })
const answers: fc.Arbitrary<Answers> = fc.record({ X: fc.integer({ min: -1, max: 11 }), Y: fc.constantFrom(...OPTIONS_Y), B: fc.boolean() })

let run = 0

async function entry(name: string, own: boolean, setId: number, fields: { dataType: string; options?: string[]; expression?: string }) {
  await insertEntity(db, {
    ownerId, adviceSetId: own ? setId : null, entityTypeId: fields.expression ? ENTITY_TYPES.formula.id : ENTITY_TYPES.variable.id, reservedName: name,
    dataType: fields.dataType, validOptions: fields.options ?? [], isClosedSet: fields.options !== undefined, displayFormat: null, defaultValue: null,
    expression: fields.expression ?? null, isConstant: false, description: '', createdBy: null,
  })
}

/** Stores a generated set under names of this run (owner-wide names are unique in the owner). */
async function storeSet(model: { rules: Array<{ nodes: NodeModel[] }> }, s: Shape) {
  run += 1
  const names = { X: `X_${run}`, Y: `Y_${run}`, B: `B_${run}`, F: `F_${run}` }
  const rename = (text: string) => text.replace(/\{\{([XYB])\}\}/g, (_m, n: 'X' | 'Y' | 'B') => `{{${names[n]}}}`)
  const set = await createAdviceSet(db, { ownerId, name: `Generated ${run}` })
  await entry(names.X, s.ownX, set.id, { dataType: 'number' })
  await entry(names.Y, s.ownY, set.id, { dataType: 'select', options: OPTIONS_Y })
  await entry(names.B, s.ownB, set.id, { dataType: 'boolean' })
  await entry(names.F, s.ownF, set.id, { dataType: 'number', expression: `{{${names.X}}} * 2 + 1` })
  let advice = 0
  const spec = (node: NodeModel): NodeSpec => node.type === 'advice'
    ? { type: 'advice', headline: `Advice ${++advice}`, text: `X {{${names.X}}}, F [[${names.F}]], Y {{${names.Y}}}, B {{${names.B}}}` }
    : { type: node.type, ...(node.expression ? { expression: rename(node.expression) } : {}), children: node.children.map(spec) }
  const { rule: called } = await buildRule(db, set.id, 'Called', [
    { type: 'condition', expression: `[[${names.F}]] > 9`, children: [{ type: 'advice', headline: 'Big F', text: `[[${names.F}]] from {{${names.X}}}` }] },
  ])
  if (s.calledOnly) await author.api('PATCH', `/api/rule/${called.id}`, { onlyWhenCalled: true })
  for (const [i, rule] of model.rules.entries()) {
    await buildRule(db, set.id, `Rule ${i}`, [...rule.nodes.map(spec), ...(i === 0 ? [{ type: 'ruleCall', calledRuleId: called.id }] : [])])
  }
  return { set, names }
}

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
      const { set, names } = await storeSet(model, s)
      const copy = await author.api('POST', '/api/adviceset/copy', { id: set.id })
      if (copy.statusCode !== 201) return false
      const copyId = copy.json().data.id as number
      const inputsOf = (a: Answers) => ({ [names.X]: a.X, [names.Y]: a.Y, [names.B]: a.B })
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
