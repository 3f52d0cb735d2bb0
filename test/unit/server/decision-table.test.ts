// Issue 28, point 5: decision tables read from cells (forms, errors by cell, kinds from the dictionary or the cells),
// the rule tree they make and its runs under both hit policies, the overlap and unreachable-row analysis, and the
// tree read back into the same table.
import t from 'tap'
import {
  readDecisionTable, tableGrid, tableOfTree, tableTree, type DictionaryEntry, type Grid, type HitPolicy, type TableNodeSpec,
} from '../../../src/services/authoring/decision-table.ts'
import { analyseTable, MAX_COVER_STEPS } from '../../../src/services/authoring/decision-table-analysis.ts'
import { compileAdviceSet, evaluate, type AdviceSetModel, type NodeModel } from '../../../src/engine/index.ts'

const entry = (name: string, dataType: string, options: string[] = [], isClosedSet = false): [string, DictionaryEntry] =>
  [name.toLowerCase(), { name, kind: 'variable', dataType, options, isClosedSet }]
const dictionary = new Map<string, DictionaryEntry>([
  entry('Age', 'number'), entry('Smoker', 'boolean'), entry('Region', 'select', ['North', 'South', 'East'], true), entry('Start', 'date'),
  entry('Rate', 'percent'), entry('Tags', 'array'),
])

let nextId = 0
function models(specs: TableNodeSpec[]): NodeModel[] {
  return specs.map((s) => ({
    id: String(++nextId), type: s.type, children: models(s.children),
    ...(s.expression ? { expression: s.expression } : {}), ...(s.headline ? { headline: s.headline } : {}), ...(s.text ? { text: s.text } : {}),
  }))
}

function run(nodes: NodeModel[], inputs: Record<string, unknown>): string[] {
  const model: AdviceSetModel = {
    id: '1', name: 'Set', entities: [
      { id: 'e1', name: 'Age', kind: 'variable', dataType: 'number' }, { id: 'e2', name: 'Smoker', kind: 'variable', dataType: 'boolean' },
      { id: 'e3', name: 'Region', kind: 'variable', dataType: 'select', options: ['North', 'South', 'East'] },
    ],
    rules: [{ id: 'r1', name: 'Table', adviceSetId: '1', nodes }],
  }
  return evaluate(compileAdviceSet(model), inputs, { contentType: 'text' }).advice.map((a) => String(a.headline))
}

const GRID: Grid = [
  ['{{Age}}', '{{Smoker}}', '{{Region}}', 'Headline', 'text'],
  ['>= 65', '-', '', 'Retired', 'Enjoy it'],
  ['< 30', 'yes', 'North, south', 'Young smoker up north', ''],
  [18, 'false', '-', 'Adult non-smoker', 'Eighteen exactly'],
  ['', '', '', '', ''],
  ['-', '-', '-', 'Everyone else', ''],
]

t.test('cells: comparisons, equality, any, lists, options in their own spelling; blank rows skipped', async (t) => {
  const read = readDecisionTable(GRID, dictionary)
  t.same(read.errors, [])
  t.same(read.table.rows.map((r) => r.row), [2, 3, 4, 6], 'sheet row numbers; the blank row 5 is skipped')
  t.same(read.table.rows.map((r) => r.expression), [
    '{{Age}} >= 65',
    '{{Age}} < 30 && {{Smoker}} == true && ({{Region}} == "North" || {{Region}} == "South")',
    '{{Age}} == 18 && {{Smoker}} == false',
    null,
  ])
  t.same(read.table.rows[0]!.text, 'Enjoy it')
  t.equal(read.table.rows[1]!.text, null)
})

t.test('errors name the cell in spreadsheet notation', async (t) => {
  const read = readDecisionTable([
    ['{{Age}}', '{{Region}}', '{{Start}}', '{{Smoker}}', 'Headline', 'Nonsense', '{{Tags}}'],
    ['>= abc', 'West', '2024-02-30', '> true', 'A'],
    ['>=', '"North', '2024-02-01', 'maybe', ''],
    ['5, , 6', '< North', '<= 2024-02-01', 'no', 'B'],
  ], dictionary)
  t.same(read.errors.map((e) => e.message), [
    "F1: 'Nonsense' names no column: write a variable as {{Nonsense}}, a formula as [[Nonsense]], or Headline or Text",
    'G1: {{Tags}} holds a list (Array): a table\'s cells cannot test it',
    "A3: '>=' has an operator without a value",
    'B3: \'"North\' has a " without its closing "',
    'E3: the headline is empty: every row gives advice',
    "A4: '5, , 6' has an empty item in its list",
    "A2: '>= abc' is not a number",
    "B2: 'West' is not one of Region's options (North, South, East)",
    "C2: '2024-02-30' is not a date (write YYYY-MM-DD)",
    "D2: '> true': true/false is compared for equality only (write true or false)",
    "D3: 'maybe' is not true or false",
    "B4: '< North': text is compared for equality only (write the value, or a list: a, b)",
  ])
  const noHeadline = readDecisionTable([['{{Age}}', 'Text'], ['1', 'x']], dictionary)
  t.match(noHeadline.errors[0]!.message, /^A1: the header has no Headline column/)
  t.match(readDecisionTable([], dictionary).errors[0]!.message, /^A1: the sheet is empty/)
  t.match(readDecisionTable([['{{Age}}', 'Headline']], dictionary).errors[0]!.message, /^A2: the table has no rows/)
  const tooMany = readDecisionTable([['{{Age}}', 'Headline'], ...Array.from({ length: 1001 }, (_, i) => [i, `H${i}`])], dictionary)
  t.match(tooMany.errors[0]!.message, /^A1002: a table has at most 1000 rows/)
})

t.test('unknown names: read as the cells suggest, noted on their header cell; quoted text is text; percents and dates', async (t) => {
  const read = readDecisionTable([
    ['{{Income}}', '{{Colour}}', '{{Code}}', '[[Score]]', '{{Rate}}', '{{Start}}', 'Headline'],
    ['> 1000', 'red, "blue, green"', '"007"', '>= 0.5', '>= 4%', '< 2024-05-01', 'A'],
  ], dictionary)
  t.same(read.errors, [])
  t.same(read.table.columns.map((c) => [c.name, c.kind, c.known]), [
    ['Income', 'number', false], ['Colour', 'text', false], ['Code', 'text', false], ['Score', 'number', false], ['Rate', 'number', true], ['Start', 'date', true],
  ])
  t.equal(read.table.rows[0]!.expression,
    '{{Income}} > 1000 && ({{Colour}} == "red" || {{Colour}} == "blue, green") && {{Code}} == "007" && [[Score]] >= 0.5 && {{Rate}} >= 0.04 && {{Start}} < #2024-05-01#')
  t.same(read.notes.map((n) => n.cell), ['A1', 'B1', 'C1', 'D1'])
  t.match(read.notes[0]!.message, /^A1: \{\{Income\}\} is not in the dictionary: its cells are read as number/)
})

t.test('the tree runs as the table reads: first match ends the rule, collect gives every match', async (t) => {
  const table = readDecisionTable(GRID, dictionary).table
  const first = models(tableTree(table, 'first'))
  const collect = models(tableTree(table, 'collect'))
  t.same(first.map((n) => [n.type, n.children.map((c) => c.type)]), [
    ['condition', ['advice', 'ruleExit']], ['condition', ['advice', 'ruleExit']], ['condition', ['advice', 'ruleExit']], ['conditionAlways', ['advice', 'ruleExit']],
  ])
  const cases: Array<[Record<string, unknown>, string[], string[]]> = [
    [{ Age: 70, Smoker: true, Region: 'East' }, ['Retired'], ['Retired', 'Everyone else']],
    [{ Age: 25, Smoker: true, Region: 'South' }, ['Young smoker up north'], ['Young smoker up north', 'Everyone else']],
    [{ Age: 18, Smoker: false, Region: 'East' }, ['Adult non-smoker'], ['Adult non-smoker', 'Everyone else']],
    [{ Age: 40, Smoker: false, Region: 'North' }, ['Everyone else'], ['Everyone else']],
  ]
  for (const [inputs, firstAdvice, collectAdvice] of cases) {
    t.same(run(first, inputs), firstAdvice, `first ${JSON.stringify(inputs)}`)
    t.same(run(collect, inputs), collectAdvice, `collect ${JSON.stringify(inputs)}`)
  }
})

function warnings(grid: Grid, policy: HitPolicy) {
  return analyseTable(readDecisionTable(grid, dictionary).table, policy).map((w) => w.message)
}

t.test('warnings: overlaps, rows never reached (exactly, with open and closed ends), rows that can never match', async (t) => {
  const grid: Grid = [
    ['{{Age}}', '{{Region}}', 'Headline'],
    ['< 30', '-', 'Young'],
    ['>= 30', 'North', 'North'],
    ['>= 30', 'South, East', 'Elsewhere'],
    ['> 50', '-', 'Covered by rows 3 and 4'],
    ['<= 29', 'North', 'Covered by row 2'],
    ['29.5', '-', 'In the gap between 29 and 30? No: < 30 covers it'],
  ]
  t.same(warnings(grid, 'first'), [
    'Row 5 is never reached: rows 3 and 4 match every case it matches, and the first match wins.',
    'Row 6 is never reached: row 2 matches every case it matches, and the first match wins.',
    'Row 7 is never reached: row 2 matches every case it matches, and the first match wins.',
  ])
  t.same(warnings([['{{Age}}', 'Headline'], ['<= 29', 'A'], ['>= 30', 'B'], ['29.5', 'C']], 'first'), [], '29.5 falls between <= 29 and >= 30')
  t.same(warnings([['{{Age}}', '{{Smoker}}', 'Headline'], ['> 10', 'true', 'A'], ['> 10', 'false', 'B'], ['> 20', '-', 'C'], ['> 5', '-', 'D']], 'first'), [
    'Row 4 is never reached: rows 2 and 3 match every case it matches, and the first match wins.',
    'Row 5 overlaps rows 2, 3 and 4: where they meet, the earlier row wins and row 5 is skipped.',
  ], 'true and false together cover a true/false column')
  t.same(warnings([['{{Age}}', '{{Smoker}}', 'Headline'], ['> 10', 'true', 'A'], ['> 20', '-', 'C']], 'collect'), [
    'Row 3 overlaps row 2: where they meet, each gives its advice.',
  ])
  t.same(warnings([['{{Age}}', '{{Age}}', 'Headline'], ['>= 65', '< 18', 'Never'], ['>= 18', '< 65', 'Adult']], 'first'), [
    'Row 2 can never match: its cells on one variable exclude each other.',
  ], 'two columns on one variable narrow each other (a range)')
  t.same(warnings([['{{Colour}}', 'Headline'], ['red', 'A'], ['blue', 'B'], ['-', 'C']], 'first'), [
    'Row 4 overlaps rows 2 and 3: where they meet, the earlier row wins and row 4 is skipped.',
  ], 'free text: two values never cover any value')
  t.same(warnings([['{{Region}}', 'Headline'], ['North', 'A'], ['South, East', 'B'], ['-', 'C']], 'first'), [
    'Row 4 is never reached: rows 2 and 3 match every case it matches, and the first match wins.',
  ], 'a closed set of options is covered by its options')
})

t.test('the unreachable-row search is bounded', async (t) => {
  // Eight columns, each row a different half-space per column: covering grows fast; the budget stops it with a warning.
  const columns = Array.from({ length: 8 }, (_, i) => `{{V${i}}}`)
  const rows: Grid = Array.from({ length: 300 }, (_, r) => [...columns.map((_, c) => ((r + c) % 3 === 0 ? `< ${r % 17}` : `> ${(r * 7 + c) % 23}`)), `R${r}`])
  const started = Date.now()
  const found = warnings([[...columns, 'Headline'], ...rows], 'first')
  t.ok(Date.now() - started < 20_000, 'ends')
  t.ok(found.length > 0)
  const stop = found.find((m) => m.includes('were not checked'))
  if (stop) t.match(stop, new RegExp(`over ${MAX_COVER_STEPS}`))
})

t.test('a tree of the shape reads back as the same table, and its grid reads again into the same tree', async (t) => {
  const read = readDecisionTable([
    ['{{Age}}', '{{Colour}}', '{{Region}}', '{{Start}}', '{{Age}}', 'Headline', 'Text'],
    ['>= 65', '"7", red, "a, b"', 'north', '>= 2024-01-01', '< 90', 'A', 'Text A'],
    ['-', '-', '-', '-', '-', 'B', ''],
    ['-2.5', 'x', 'East', '-', '-', 'C', ''],
  ], dictionary)
  t.same(read.errors, [])
  for (const policy of ['first', 'collect'] as const) {
    const tree = tableTree(read.table, policy)
    const shape = tableOfTree(models(tree), dictionary)
    if (!shape.ok) throw new Error(shape.reason)
    t.equal(shape.hitPolicy, policy)
    const grid = tableGrid(shape.table)
    t.same(grid[0], ['{{Age}}', '{{Colour}}', '{{Region}}', '{{Start}}', '{{Age}}', 'Headline', 'Text'])
    t.same(grid[1], ['>= 65', '"7", red, "a, b"', 'North', '>= 2024-01-01', '< 90', 'A', 'Text A'])
    t.same(grid[3], [-2.5, 'x', 'East', '-', '-', 'C', ''])
    const again = readDecisionTable(grid, dictionary)
    t.same(again.errors, [])
    t.same(tableTree(again.table, policy), tree, `${policy}: the same tree`)
  }
})

t.test('trees of another shape say why', async (t) => {
  const reason = (nodes: NodeModel[]) => {
    const shape = tableOfTree(nodes, dictionary)
    return shape.ok ? 'ok' : shape.reason
  }
  const advice = (headline: string): NodeModel => ({ id: 'a', type: 'advice', headline, children: [] })
  t.match(reason([]), /no nodes/)
  t.match(reason([advice('A')]), /top-level node a is a advice/)
  t.match(reason([{ id: 'c', type: 'condition', expression: '{{Age}} + 1 > 5', children: [advice('A')] }]), /is not cells joined with &&/)
  t.match(reason([{ id: 'c', type: 'condition', expression: '{{Age}} > 5', children: [advice('A'), advice('B')] }]), /one Advice node, then a Rule Exit/)
  t.match(reason([
    { id: 'c', type: 'condition', expression: '{{Age}} > 5', children: [advice('A'), { id: 'x', type: 'ruleExit', children: [] }] },
    { id: 'd', type: 'condition', expression: '{{Age}} > 6', children: [advice('B')] },
  ]), /Rows end differently/)
  t.match(reason([
    { id: 'c', type: 'condition', expression: '{{Age}} > 5 && {{Region}} == "North"', children: [advice('A')] },
    { id: 'd', type: 'condition', expression: '{{Region}} == "North" && {{Age}} > 6', children: [advice('B')] },
  ]), /tests Region before Age/)
  t.match(reason([{ id: 'c', type: 'condition', expression: '{{Age}} == "old"', children: [advice('A')] }]), /Age is number in the dictionary/)
  t.match(reason([{ id: 'c', type: 'condition', expression: '{{Region}} > "A"', children: [advice('A')] }]), /equality only/)
  t.equal(reason([{ id: 'c', type: 'condition', expression: '{{Age}}>5', children: [advice('A')] }]), 'ok', 'spacing is free')
})
