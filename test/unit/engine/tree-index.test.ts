// The public index is what the rest of the app imports: one advice set through every part of it.
import t from 'tap'
import * as engine from '../../../src/engine/index.ts'
import { loan } from '../../fixtures/engine/loan.ts'

t.test('the index exposes each part of the engine', async (t) => {
  for (const name of [
    'parseExpression',
    'compileExpression',
    'printExpression',
    'coerceInput',
    'formatValue',
    'parseTemplate',
    'renderContent',
    'EngineError',
    'ENTITY_TYPES',
    'compileAdviceSet',
    'evaluate',
    'staticChecks',
    'generateBranches',
    'summarize',
  ]) {
    t.ok(name in engine, name)
  }
})

t.test('one advice set through compile, evaluate, checks, branches and summary', async (t) => {
  const compiled = engine.compileAdviceSet(loan)
  t.same(compiled.errors, [])
  const result = engine.evaluate(compiled, { Age: 40, Income: 120000, Employed: 'yes', Region: 'north', Rate: '6' }, { contentType: 'markdown' })
  t.equal(result.currentFocus, undefined)
  t.ok(result.advice.some((item) => item.nodeId === 'a-prime'))
  t.equal(result.variables.Region?.value, 'North', 'select answers are stored as the option is written')
  t.ok(engine.staticChecks(loan).some((issue) => issue.code === 'UNREACHABLE'))
  t.ok(engine.generateBranches(loan, { limit: 3 }).truncated)
  t.match(engine.summarize(loan), /^# Test set/)
})
