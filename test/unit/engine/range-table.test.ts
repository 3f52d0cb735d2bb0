// Range tables (range-table.ts) let an untraced run skip the rules whose first band a value fails. They must never
// change an outcome: the advice, the errors and the values read must be what checking every rule in order gives.
import t from 'tap'
import fc from 'fast-check'
import { compileAdviceSet, evaluate } from '../../../src/engine/tree/index.ts'
import type { CompiledAdviceSet } from '../../../src/engine/tree/index.ts'
import { mainProgram, OP_TABLE } from '../../../src/engine/tree/program.ts'
import { pieceIn, rangeTableOf } from '../../../src/engine/tree/range-table.ts'
import { nextDown } from '../../../src/engine/tree/condition-plan.ts'
import type { NodeModel, RuleModel } from '../../../src/engine/model.ts'
import { advice, adviceSet, always, assign, condition, rule, variable } from '../../fixtures/engine/build.ts'
import { decisionInputs, tableAdviceSet, tableInputs, tableRows } from '../../../scripts/bench/fixtures/decision-table.ts'

function withoutTables(compiled: CompiledAdviceSet): CompiledAdviceSet {
  const { program, ruleEnds } = mainProgram(compiled.rules, { tables: false })
  return { ...compiled, program, ruleEnds }
}

function tablesIn(compiled: CompiledAdviceSet): number {
  return compiled.program.ops.filter((op) => op === OP_TABLE).length
}

function outcome(result: ReturnType<typeof evaluate>) {
  return JSON.stringify({
    advice: result.advice.map((item) => item.nodeId),
    assumptions: result.assumptions.map((item) => item.nodeId),
    errors: result.errors.map((error) => [error.code, error.nodeId, error.cause?.code, error.variable]),
    variables: Object.entries(result.variables).map(([name, variable]) => [name, variable.value]),
  })
}

const number = fc.constantFrom(-1, 0, 0.5, 2, 3, 18, 30, 64.5, 65, 100)
const band = fc.oneof(
  fc.tuple(fc.constantFrom('<', '<=', '>', '>=', '=='), number).map(([op, n]) => `{{A}} ${op} ${n}`),
  fc.tuple(number, number).map(([low, high]) => `{{A}} >= ${Math.min(low, high)} && {{A}} < ${Math.max(low, high)}`),
)
const atom = fc.oneof(
  fc.tuple(fc.constantFrom('A', 'B'), fc.constantFrom('<', '>=', '==', '!='), number).map(([name, op, n]) => `{{${name}}} ${op} ${n}`),
  fc.constantFrom('{{B}} == "x"', '{{B}}', '{{B}} / {{A}} > 1', '{{A}} * {{B}} > 10'),
)
const leaf = (id: string) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(advice(id, 'x')) },
    { weight: 4, arbitrary: fc.constant(advice(id, 'x', '', ['assumption'])) },
    { weight: 4, arbitrary: atom.map((source) => condition(`${id}c`, source, advice(id, 'x'))) },
    { weight: 4, arbitrary: fc.constant(always(`${id}w`, advice(id, 'x'))) },
    // Writing the table's variable keeps a rule out of tables: later bands must see the new value.
    { weight: 1, arbitrary: fc.constant(assign(`${id}s`, '{{A}} = 25', advice(id, 'x'))) },
  )

/** Mostly a rule a table may index; one time in six, one that stops a table: it writes A, or starts on B. */
const generatedRule = (i: number): fc.Arbitrary<RuleModel> =>
  fc.oneof(
    { weight: 5, arbitrary: fc.tuple(band, fc.array(atom, { maxLength: 2 }), fc.array(leaf(`a${i}`), { minLength: 1, maxLength: 2 })).map(([first, more, leaves]) =>
      rule(`r${i}`, `R${i}`, condition(`c${i}`, [first, ...more].join(' && '), ...leaves.map((node, k) => renamed(node, `${k}`)))),
    ) },
    { weight: 1, arbitrary: fc.constantFrom(
      rule(`r${i}`, `R${i}`, assign(`s${i}`, '{{A}} = {{A}} + 20')),
      rule(`r${i}`, `R${i}`, condition(`c${i}`, '{{B}} > 1', advice(`a${i}`, 'x'))),
    ) },
  )

/** Node ids made unique within a rule. */
function renamed(node: NodeModel, suffix: string): NodeModel {
  return { ...node, id: `${node.id}_${suffix}`, children: node.children.map((child) => renamed(child, suffix)) }
}

const rawValue = fc.oneof(number, fc.constantFrom(17.25, -0, 1e308, 'x', '', true, null, [1, 2]))

t.test('a run with range tables gives what checking every rule gives, traced or not', async (t) => {
  let withTables = 0
  fc.assert(
    fc.property(
      fc.integer({ min: 4, max: 9 }).chain((count) => fc.tuple(...Array.from({ length: count }, (_, i) => generatedRule(i)))),
      fc.option(rawValue, { nil: undefined }),
      fc.option(rawValue, { nil: undefined }),
      fc.boolean(),
      (rules, a, b, withDefault) => {
        const model = adviceSet(rules, [
          variable('A', { dataType: undefined, ...(withDefault ? { defaultValue: 30 } : {}) }),
          variable('B', { dataType: undefined }),
        ])
        const inputs: Record<string, unknown> = {}
        if (a !== undefined) inputs.A = a
        if (b !== undefined) inputs.B = b
        const compiled = compileAdviceSet(model)
        if (tablesIn(compiled) > 0) withTables++
        const reference = outcome(evaluate(withoutTables(compileAdviceSet(model)), inputs, { render: false }))
        return (
          outcome(evaluate(compiled, inputs, { render: false })) === reference &&
          outcome(evaluate(compiled, inputs, { render: false, trace: true })) === reference &&
          outcome(evaluate(compiled, inputs, { contentType: 'html' })) === reference
        )
      },
    ),
    { numRuns: 600 },
  )
  t.ok(withTables > 100, `most generated sets have a table (${withTables} of 600)`)
})

t.test("the engine bench's decision table gets one table and the same advice for every input", async (t) => {
  const compiled = compileAdviceSet(tableAdviceSet(tableRows(50)))
  const plain = withoutTables(compiled)
  t.equal(tablesIn(compiled), 1)
  t.equal(tablesIn(plain), 0)
  const differing = decisionInputs(1000)
    .map(tableInputs)
    .filter((inputs) => outcome(evaluate(compiled, inputs, { render: false })) !== outcome(evaluate(plain, inputs, { render: false })))
  t.same(differing, [])
})

t.test('pieces: each value enters exactly the rules whose band holds', async (t) => {
  // Bands [18, 30], [25, 40), [50, ∞), (-∞, 20) laid out at 10, 20, 30, 40.
  const lows = [18, 25, 50, -Infinity]
  const highs = [30, nextDown(40), Infinity, nextDown(20)]
  const table = rangeTableOf(7, lows, highs, [10, 20, 30, 40], [20, 30, 40, 50])!
  t.ok(table.dense, 'edges within a few thousand get a lookup for whole numbers')
  const entered = (value: number) => {
    const piece = pieceIn(table, value)
    return Array.from(table.starts.subarray(table.firsts[piece]!, table.firsts[piece + 1]!))
  }
  for (const value of [-Infinity, -5, 17.5, 18, 19.99, 20, 24.5, 25, 30, 30.5, 39.999, 40, 49, 50, 1e300, Infinity]) {
    const expected = [10, 20, 30, 40].filter((_, i) => value >= lows[i]! && value <= highs[i]!)
    t.same(entered(value), expected, `value ${value}`)
  }
  t.equal(table.end, 50)
  const four = { starts: [1, 2, 3, 4], stops: [2, 3, 4, 5] }
  t.equal(rangeTableOf(7, [-Infinity, -Infinity, -Infinity, -Infinity], [Infinity, Infinity, Infinity, Infinity], four.starts, four.stops), null, 'bands every value passes do not pay')
  const nested = Array.from({ length: 200 }, (_, i) => i)
  t.equal(rangeTableOf(7, nested, nested.map((i) => 400 - i), nested, nested.map((i) => i + 1)), null, 'nested bands would list too many rules')
  const wide = rangeTableOf(7, [0, 1e6, 2e6, 3e6], [10, 1e6 + 10, 2e6 + 10, 3e6 + 10], four.starts, four.stops)!
  t.equal(wide.dense, null, 'edges millions apart are searched')
  t.same(Array.from(wide.starts.subarray(wide.firsts[pieceIn(wide, 2e6 + 5)]!, wide.firsts[pieceIn(wide, 2e6 + 5) + 1]!)), [3])
})

t.test('a table reads its variable as the first rule would: a bad answer fails each rule in turn', async (t) => {
  const rules = [0, 1, 2, 3].map((i) => rule(`r${i}`, `R${i}`, condition(`c${i}`, `{{A}} >= ${i * 10} && {{A}} < ${i * 10 + 10}`, advice(`a${i}`, 'x'))))
  const compiled = compileAdviceSet(adviceSet(rules, [variable('A', { dataType: 'number' })]))
  t.equal(tablesIn(compiled), 1)
  const bad = evaluate(compiled, { A: 'many' }, { render: false })
  t.same(bad.errors.map((error) => error.ruleId), ['r0', 'r1', 'r2', 'r3'])
  t.same(evaluate(compiled, { A: 25 }, { render: false }).advice.map((item) => item.nodeId), ['a2'])
  t.same(evaluate(compiled, {}, { render: false }).errors.map((error) => error.variable), ['A', 'A', 'A', 'A'])
})

t.test("a rule that writes the table's variable is not in a table: the rules after it see the new value", async (t) => {
  const band = (i: number, low: number, ...children: NodeModel[]) => rule(`r${i}`, `R${i}`, condition(`c${i}`, `{{A}} >= ${low} && {{A}} < ${low + 10}`, ...children))
  const rules = [
    band(0, 0, advice('a0', 'x')),
    band(1, 0, assign('s1', '{{A}} = 25'), advice('a1', 'x')),
    band(2, 20, advice('a2', 'x')),
    band(3, 0, advice('a3', 'x')),
    band(4, 20, advice('a4', 'x')),
    band(5, 40, advice('a5', 'x')),
  ]
  const compiled = compileAdviceSet(adviceSet(rules, [variable('A', { dataType: 'number' })]))
  t.equal(tablesIn(compiled), 1, 'rules 2–5 make a table; rules 0 and 1 run one by one')
  t.same(evaluate(compiled, { A: 5 }, { render: false }).advice.map((item) => item.nodeId), ['a0', 'a1', 'a2', 'a4'])
})
