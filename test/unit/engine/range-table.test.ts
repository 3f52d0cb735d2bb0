// Range tables (range-table.ts) let an untraced run skip the rules whose first band a value fails. They must never
// change an outcome: the advice, the errors and the values read must be what checking every rule in order gives.
import t from 'tap'
import fc from 'fast-check'
import { compileAdviceSet, evaluate } from '../../../src/engine/tree/index.ts'
import type { CompiledAdviceSet } from '../../../src/engine/tree/index.ts'
import { mainProgram, OP_TABLE } from '../../../src/engine/tree/program.ts'
import { lowestRule, pieceIn } from '../../../src/engine/tree/range-table.ts'
import type { RangeColumn, RangeTable } from '../../../src/engine/tree/range-table.ts'
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
    // Writing the second band's variable keeps the table to one column; writing another one changes nothing.
    { weight: 1, arbitrary: fc.constant(assign(`${id}t`, '{{B}} = 7', advice(id, 'x'))) },
    { weight: 2, arbitrary: fc.constant(assign(`${id}u`, '{{C}} = {{A}} * 2', advice(id, 'x'))) },
  )

const secondBand = fc.tuple(fc.constantFrom('<', '<=', '>', '>=', '=='), number).map(([op, n]) => `{{B}} ${op} ${n}`)

/**
 * Mostly a rule a table may index (with a second band on B when `second`); one time in six, one that stops a
 * table: it writes A, or starts on B.
 */
const generatedRule = (i: number, second: boolean): fc.Arbitrary<RuleModel> =>
  fc.oneof(
    { weight: 5, arbitrary: fc.tuple(band, second ? secondBand.map((b) => [b]) : fc.constant([]), fc.array(atom, { maxLength: 2 }), fc.array(leaf(`a${i}`), { minLength: 1, maxLength: 2 })).map(
      ([first, bands, more, leaves]) => rule(`r${i}`, `R${i}`, condition(`c${i}`, [first, ...bands, ...more].join(' && '), ...leaves.map((node, k) => renamed(node, `${k}`)))),
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
  let withSecond = 0
  fc.assert(
    fc.property(
      fc.tuple(fc.integer({ min: 4, max: 9 }), fc.boolean()).chain(([count, second]) => fc.tuple(...Array.from({ length: count }, (_, i) => generatedRule(i, second)))),
      fc.option(rawValue, { nil: undefined }),
      fc.option(rawValue, { nil: undefined }),
      fc.boolean(),
      (rules, a, b, withDefault) => {
        const model = adviceSet(rules, [
          variable('A', { dataType: undefined, ...(withDefault ? { defaultValue: 30 } : {}) }),
          variable('B', { dataType: undefined }),
          variable('C', { dataType: undefined }),
        ])
        const inputs: Record<string, unknown> = {}
        if (a !== undefined) inputs.A = a
        if (b !== undefined) inputs.B = b
        const compiled = compileAdviceSet(model)
        if (tablesIn(compiled) > 0) withTables++
        if (compiled.program.tables.some((table) => table?.second)) withSecond++
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
  t.ok(withTables > 80, `many generated sets have a table (${withTables} of 600)`)
  t.ok(withSecond > 20, `some have a second column (${withSecond} of 600)`)
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

/** The table in front of the compiled set's rules (there must be exactly one). */
function onlyTable(compiled: CompiledAdviceSet): RangeTable {
  const tables = compiled.program.tables.filter((table) => table !== null)
  if (tables.length !== 1) throw new Error(`expected one table, found ${tables.length}`)
  return tables[0]!
}

/** The rules (by index) whose bits a column's piece for `value` has. */
function rulesIn(table: RangeTable, column: RangeColumn, value: number): number[] {
  const at = pieceIn(column, value) * table.words
  const rules: number[] = []
  for (let word = 0; word < table.words; word++) {
    for (let bits = column.masks[at + word]!; bits !== 0; bits &= bits - 1) rules.push(lowestRule(bits, word))
  }
  return rules
}

t.test('pieces: each value enters exactly the rules whose bands hold', async (t) => {
  const sources = ['{{A}} >= 18 && {{A}} <= 30', '{{A}} >= 25 && {{A}} < 40', '{{A}} >= 50', '{{A}} < 20']
  const bands: Array<[number, number]> = [[18, 30], [25, nextDown(40)], [50, Infinity], [-Infinity, nextDown(20)]]
  const table = onlyTable(compileAdviceSet(adviceSet(sources.map((source, i) => rule(`r${i}`, `R${i}`, condition(`c${i}`, source, advice(`a${i}`, 'x')))), [variable('A')])))
  t.ok(table.first.dense, 'edges within a few thousand get a lookup for whole numbers')
  t.equal(table.second, null, 'not every rule has a second band')
  for (const value of [-Infinity, -5, 17.5, 18, 19.99, 20, 24.5, 25, 30, 30.5, 39.999, 40, 49, 50, 1e300, Infinity]) {
    const expected = bands.flatMap(([low, high], i) => (value >= low && value <= high ? [i] : []))
    t.same(rulesIn(table, table.first, value), expected, `value ${value}`)
  }
})

t.test('a second column: every rule has a second band, on another variable', async (t) => {
  const rules = Array.from({ length: 40 }, (_, i) => rule(`r${i}`, `R${i}`, condition(`c${i}`, `{{A}} >= ${i} && {{A}} < ${i + 5} && {{B}} > ${i * 1e6} && {{A}} != 3`, advice(`a${i}`, 'x'))))
  const compiled = compileAdviceSet(adviceSet(rules, [variable('A'), variable('B')]))
  const table = onlyTable(compiled)
  t.equal(table.words, 2, '40 rules take two words a piece')
  t.equal(table.first.slot, compiled.variableIndex.get('A'))
  t.equal(table.second?.slot, compiled.variableIndex.get('B'))
  t.equal(table.second?.dense, null, 'edges millions apart are searched')
  t.same(rulesIn(table, table.first, 36), [32, 33, 34, 35, 36])
  t.same(rulesIn(table, table.first, 33), [29, 30, 31, 32, 33], 'bit 31 and the next word')
  t.same(evaluate(compiled, { A: 33, B: 34.5e6 }, { render: false }).advice.map((item) => item.nodeId), ['a29', 'a30', 'a31', 'a32', 'a33'])
  t.same(rulesIn(table, table.second!, 34.5e6), Array.from({ length: 35 }, (_, i) => i))
  t.same(evaluate(compiled, { A: 36, B: 34.5e6 }, { render: false }).advice.map((item) => item.nodeId), ['a32', 'a33', 'a34'])
  t.same(evaluate(compiled, { A: 3, B: 5 }, { render: false }).advice.map((item) => item.nodeId), [], 'the check after both bands still runs')
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

t.test("a rule that writes the second band's variable keeps the table to its first column", async (t) => {
  const rules = [0, 1, 2, 3, 4].map((i) =>
    rule(`r${i}`, `R${i}`, condition(`c${i}`, `{{A}} >= ${i} && {{B}} > 5`, ...(i === 0 ? [assign('s0', '{{B}} = 0')] : []), advice(`a${i}`, 'x'))),
  )
  const compiled = compileAdviceSet(adviceSet(rules, [variable('A', { dataType: 'number' }), variable('B', { dataType: 'number' })]))
  t.equal(onlyTable(compiled).second, null)
  t.same(evaluate(compiled, { A: 9, B: 10 }, { render: false }).advice.map((item) => item.nodeId), ['a0'], 'the later rules see B = 0')
})
