import t from 'tap'
import { compileAdviceSet, evaluate } from '../../../src/engine/tree/index.ts'
import { API_CONTEXTS, RESERVED_VARIABLES } from '../../../src/engine/entity-types.ts'
import { advice, adviceSet, assign, condition, rule, variable } from '../../fixtures/engine/build.ts'

const ids = (items: ReadonlyArray<{ nodeId: string }>) => items.map((item) => item.nodeId)

t.test('Context holds the API context of the run, default run, and inputs cannot change it', async (t) => {
  const model = adviceSet([rule('r', 'R', advice('a', 'Context is {{Context}}'))], [])
  const compiled = compileAdviceSet(model)
  for (const context of API_CONTEXTS) {
    const result = evaluate(compiled, { Context: 'forged' }, { context })
    t.equal(result.advice[0]!.headline, `Context is ${context}`)
    t.equal(result.variables.Context?.isSystem, true)
  }
  t.equal(evaluate(compiled, {}).advice[0]!.headline, 'Context is run')
})

t.test('conditions can branch on the context', async (t) => {
  const model = adviceSet(
    [rule('r', 'R', condition('c', '{{Context}} == "intro"', advice('intro', 'Welcome')), advice('main', 'Main'))],
    [],
  )
  const compiled = compileAdviceSet(model)
  t.same(ids(evaluate(compiled, {}, { context: 'intro', render: false }).advice), ['intro', 'main'])
  t.same(ids(evaluate(compiled, {}, { context: 'run', render: false }).advice), ['main'])
})

t.test('Example_Number is set in the examples context only', async (t) => {
  const model = adviceSet([rule('r', 'R', condition('c', '{{Example_Number}} == 2', advice('two', 'Second example')))], [])
  const compiled = compileAdviceSet(model)
  t.same(ids(evaluate(compiled, {}, { context: 'examples', exampleNumber: 2, render: false }).advice), ['two'])
  t.equal(evaluate(compiled, {}, { context: 'examples', render: false }).variables.Example_Number?.value, 1)
  const outside = evaluate(compiled, { Example_Number: 2 }, { context: 'run', render: false })
  t.same(outside.advice, [])
  t.equal(outside.errors[0]?.variable, 'Example_Number', 'outside examples it has no value, and inputs cannot set it')
})

t.test('Headline_Custom replaces the headline of the next advice only', async (t) => {
  const model = adviceSet(
    [
      rule(
        'r',
        'R',
        assign('s', '{{Headline_Custom}} = "Custom for " + {{Name}}'),
        advice('a1', 'Original one'),
        advice('a2', 'Original two'),
      ),
    ],
    [variable('Name', { dataType: 'freetext' })],
  )
  const compiled = compileAdviceSet(model)
  const full = evaluate(compiled, { Name: 'Ann' })
  t.same(full.advice.map((item) => item.headline), ['Custom for Ann', 'Original two'])
  t.equal(full.advice[0]!.customHeadline, 'Custom for Ann')
  const decision = evaluate(compiled, { Name: 'Ann' }, { render: false })
  t.equal(decision.advice[0]!.customHeadline, 'Custom for Ann')
  t.equal(decision.advice[1]!.customHeadline, undefined)
})

t.test('the API-key owner id and data API sources come from the options', async (t) => {
  const model = adviceSet(
    [
      rule(
        'r',
        'R',
        condition('c1', `{{${RESERVED_VARIABLES.apiKeyOwnerId}}} == "TF"`, advice('provider', 'Provider key')),
        condition('c2', `{{${RESERVED_VARIABLES.dataApiSources}}}.includes("bureau")`, advice('bureau', 'Bureau data')),
      ),
    ],
    [],
  )
  const compiled = compileAdviceSet(model)
  const result = evaluate(compiled, {}, { apiKeyOwnerId: 'TF', dataApiSources: ['bureau'], render: false })
  t.same(ids(result.advice), ['provider', 'bureau'])
  t.same(result.variables.Data_Api_Sources, { value: ['bureau'], valueFormatted: 'bureau', isSystem: true, isConstant: false })
  const anonymous = evaluate(compiled, {}, { render: false })
  t.equal(anonymous.errors[0]?.variable, 'ApiKey_Owner_Id', 'without a key there is no owner id')
})

t.test('reserved variables are marked as system variables even when the dictionary lists them', async (t) => {
  const model = adviceSet([rule('r', 'R', advice('a', 'x'))], [variable('Headline_Custom', { dataType: 'freetext' })])
  const compiled = compileAdviceSet(model)
  const slot = compiled.variables[compiled.variableIndex.get('Headline_Custom')!]!
  t.equal(slot.isSystem, true)
})
