// Spreadsheet decision tables (issue 28, point 5), the pure part: a sheet's cells (as text) read into a table, the
// table as a rule tree the rule editor edits, and a rule tree of that shape read back into a table for export.
//
// The sheet: the first row is the header. `{{Name}}` (a variable) or `[[Name]]` (a formula) heads a condition column;
// `Headline` (required) and `Text` (optional), in any case, head the output columns. Every other row is a rule row:
// its condition cells are `-` or empty (any value), `>= 65`, `< 30`, `<=`, `>`, `=`/`==` or a plain value (equal),
// `a, b` (one of: each item any of those forms), and "quoted text" (text, commas and all). Values are read by the
// column's data type (the dictionary's, else inferred from the cells): numbers (`4%` is 0.04), dates YYYY-MM-DD,
// true/false (yes/no), text; text and true/false are compared for equality only.
//
// The tree: one node per row, in row order: a Condition whose expression joins the row's cells with && (a list is
// ( … || … )), or a Condition (Always) for a row of any-cells; under it the row's Advice node and, for the hit policy
// `first`, a Rule Exit (the first row that matches ends the rule; `collect` lets every matching row give its advice).
import {
  NAME_PATTERN, dateToText, parseExpression, printExpression, type BinaryExpr, type DataType, type Expr, type LiteralExpr, type NodeModel, type NodeType, type RefExpr,
} from '../../engine/index.ts'

export type HitPolicy = 'first' | 'collect'
export const HIT_POLICIES: readonly HitPolicy[] = ['first', 'collect']

/** Rows below the header a table may have (the analysis of overlaps is pairwise: see decision-table-analysis.ts). */
export const MAX_TABLE_ROWS = 1000
/** Columns a table may have (conditions and outputs). */
export const MAX_TABLE_COLUMNS = 50
/** Characters in one condition cell; outputs may be as long as an advice node's templates. */
export const MAX_CONDITION_CELL = 1000
export const MAX_OUTPUT_CELL = 20_000
/** Errors a preview lists at most (the count says how many there were). */
export const MAX_LISTED_PROBLEMS = 200

export type ColumnKind = 'number' | 'date' | 'boolean' | 'text'
export type TestOp = '==' | '<' | '<=' | '>' | '>='

/** One comparison of a cell: the column's value `op` this value (dates as YYYY-MM-DD). */
export interface Comparison { op: TestOp; value: number | string | boolean }

export interface ConditionColumn {
  /** The header cell, e.g. "B1". */
  cell: string
  ref: 'variable' | 'formula'
  /** As the dictionary spells it when it has the entry, else as the header does. */
  name: string
  kind: ColumnKind
  /** The dictionary has the entry. */
  known: boolean
  /** The options of a Select or Radio variable with a closed set: the only values it takes. */
  options?: string[]
}

export interface TableCondition {
  column: number
  cell: string
  /** The cell as written. */
  source: string
  /** Empty: any value. Several: one of them. */
  items: Comparison[]
}

export interface TableRow {
  /** The sheet's row number (the header is row 1). */
  row: number
  conditions: TableCondition[]
  headline: string
  text: string | null
  /** The Condition node's expression; null: a Condition (Always). */
  expression: string | null
}

export interface CellProblem { cell: string; message: string }

export interface DecisionTable { columns: ConditionColumn[]; rows: TableRow[] }

/** What the dictionary says of a name the header uses. */
export interface DictionaryEntry {
  name: string
  kind: 'variable' | 'formula'
  dataType: string | null
  options: string[]
  isClosedSet: boolean
}

/** A cell as read from the file: text, or the number a spreadsheet cell holds. */
export type GridCell = string | number
export type Grid = GridCell[][]

/** "A", "B" … "Z", "AA" … for a 0-based column. */
export function columnLetters(index: number): string {
  let letters = ''
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters
  return letters
}

export function cellName(rowIndex: number, columnIndex: number): string {
  return `${columnLetters(columnIndex)}${rowIndex + 1}`
}

function cellText(cell: GridCell | undefined): string {
  if (cell === undefined) return ''
  return typeof cell === 'number' ? String(cell) : cell.trim()
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?(%)?$/i
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

function numberOf(text: string): number | null {
  const match = NUMBER.exec(text)
  if (!match) return null
  const value = Number(match[3] ? text.slice(0, -1) : text)
  if (!Number.isFinite(value)) return null
  return match[3] ? value / 100 : value
}

function dateOf(text: string): string | null {
  const match = DATE.exec(text)
  if (!match) return null
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
  return dateToText(date) === text ? text : null
}

function booleanOf(text: string): boolean | null {
  const lower = text.toLowerCase()
  if (lower === 'true' || lower === 'yes') return true
  if (lower === 'false' || lower === 'no') return false
  return null
}

export function kindOfDataType(dataType: string | null): ColumnKind | 'list' {
  switch (dataType as DataType | null) {
    case 'number': case 'percent': return 'number'
    case 'date': return 'date'
    case 'boolean': return 'boolean'
    case 'array': return 'list'
    default: return 'text'
  }
}

// Cells --------------------------------------------------------------------------------------------------------------

/** One item of a cell before the column's kind is known: an operator and the value's text, quoted or not. */
interface RawItem { source: string; op: TestOp; value: string; quoted: boolean }

/** The cell's items (none: any value), or the problem with it. */
function tokenizeCell(text: string): RawItem[] | string {
  if (text === '' || text === '-') return []
  const items: string[] = []
  let current = ''
  let quote: string | null = null
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quote) {
      current += ch
      if (ch === quote) {
        if (text[i + 1] === quote) { current += ch; i++ } else quote = null
      }
    } else if (ch === '"' || ch === '\'') {
      quote = ch
      current += ch
    } else if (ch === ',') {
      items.push(current)
      current = ''
    } else current += ch
  }
  if (quote) return `'${text}' has a ${quote} without its closing ${quote}`
  items.push(current)
  const parsed: RawItem[] = []
  for (const item of items) {
    const source = item.trim()
    if (source === '') return `'${text}' has an empty item in its list`
    const match = /^(>=|<=|==|=|>|<)?\s*([\s\S]*)$/.exec(source)!
    const op = (match[1] === '=' || match[1] === undefined ? '==' : match[1]) as TestOp
    const rest = match[2]!.trim()
    if (rest === '') return `'${source}' has an operator without a value`
    const quoteChar = rest[0]
    if (quoteChar === '"' || quoteChar === '\'') {
      if (rest.length < 2 || rest[rest.length - 1] !== quoteChar) return `'${source}': put only the value between the quotes`
      const inner = rest.slice(1, -1)
      if (inner.replaceAll(quoteChar + quoteChar, '').includes(quoteChar)) return `'${source}': write a quote inside quoted text twice`
      parsed.push({ source, op, value: inner.replaceAll(quoteChar + quoteChar, quoteChar), quoted: true })
    } else parsed.push({ source, op, value: rest, quoted: false })
  }
  return parsed
}

/** The kind of a column the dictionary does not know, from its cells' values. */
function inferKind(items: RawItem[]): ColumnKind {
  if (items.length === 0 || items.some((i) => i.quoted)) return 'text'
  if (items.every((i) => numberOf(i.value) !== null)) return 'number'
  if (items.every((i) => dateOf(i.value) !== null)) return 'date'
  if (items.every((i) => /^(true|false)$/i.test(i.value))) return 'boolean'
  return 'text'
}

/** An item as a comparison of the column's kind, or the problem with it. */
function comparisonOf(item: RawItem, column: ConditionColumn): Comparison | string {
  switch (column.kind) {
    case 'number': {
      const value = item.quoted ? null : numberOf(item.value)
      return value === null ? `'${item.source}' is not a number` : { op: item.op, value }
    }
    case 'date': {
      const value = item.quoted ? null : dateOf(item.value)
      return value === null ? `'${item.source}' is not a date (write YYYY-MM-DD)` : { op: item.op, value }
    }
    case 'boolean': {
      if (item.op !== '==') return `'${item.source}': true/false is compared for equality only (write true or false)`
      const value = item.quoted ? null : booleanOf(item.value)
      return value === null ? `'${item.source}' is not true or false` : { op: '==', value }
    }
    case 'text': {
      if (item.op !== '==') return `'${item.source}': text is compared for equality only (write the value, or a list: a, b)`
      if (!column.options) return { op: '==', value: item.value }
      const option = column.options.find((o) => o.toLowerCase() === item.value.toLowerCase())
      return option === undefined ? `'${item.source}' is not one of ${column.name}'s options (${column.options.join(', ')})` : { op: '==', value: option }
    }
  }
}

// Reading a sheet ----------------------------------------------------------------------------------------------------

export interface ReadTable {
  table: DecisionTable
  errors: CellProblem[]
  /** Errors beyond MAX_LISTED_PROBLEMS, not listed. */
  moreErrors: number
  /** Header notes: columns whose names the dictionary lacks. */
  notes: Array<{ cell: string; message: string }>
}

interface HeaderPlan {
  conditions: Array<{ index: number; column: ConditionColumn }>
  headline: number | null
  text: number | null
}

function readHeader(grid: Grid, dictionary: ReadonlyMap<string, DictionaryEntry>, problem: (cell: string, message: string) => void): HeaderPlan {
  const header = grid[0] ?? []
  const plan: HeaderPlan = { conditions: [], headline: null, text: null }
  const width = Math.max(0, ...grid.map((row) => row.length))
  for (let c = 0; c < width; c++) {
    const text = cellText(header[c])
    const cell = cellName(0, c)
    if (text === '') {
      if (grid.some((row, r) => r > 0 && cellText(row[c]) !== '')) problem(cell, 'this column has cells but no header: name a variable as {{Name}}, or write Headline or Text')
      continue
    }
    if (c >= MAX_TABLE_COLUMNS) {
      problem(cell, `a table has at most ${MAX_TABLE_COLUMNS} columns`)
      break
    }
    const lower = text.toLowerCase()
    if (lower === 'headline' || lower === 'text') {
      const key = lower as 'headline' | 'text'
      if (plan[key] !== null) problem(cell, `a second ${text} column (the first is ${cellName(0, plan[key]!)})`)
      else plan[key] = c
      continue
    }
    const ref = /^\{\{\s*(.*?)\s*\}\}$/.exec(text) ?? /^\[\[\s*(.*?)\s*\]\]$/.exec(text)
    if (!ref) {
      problem(cell, `'${text}' names no column: write a variable as {{${text}}}, a formula as [[${text}]], or Headline or Text`)
      continue
    }
    const kind = text.startsWith('{{') ? 'variable' : 'formula'
    const name = ref[1]!
    if (!NAME_PATTERN.test(name)) {
      problem(cell, `'${text}': names start with a letter or digit, then contain only letters, digits, _ or ?`)
      continue
    }
    const entry = dictionary.get(name.toLowerCase())
    if (entry && entry.kind !== kind) {
      problem(cell, `${name} is a ${entry.kind} in the dictionary: write it as ${entry.kind === 'variable' ? `{{${entry.name}}}` : `[[${entry.name}]]`}`)
      continue
    }
    const typed = entry ? kindOfDataType(entry.dataType) : 'text'
    if (typed === 'list') {
      problem(cell, `{{${entry!.name}}} holds a list (Array): a table's cells cannot test it`)
      continue
    }
    const options = entry && entry.isClosedSet && entry.options.length > 0 && typed === 'text' ? { options: entry.options } : {}
    plan.conditions.push({ index: c, column: { cell, ref: kind, name: entry?.name ?? name, kind: typed, known: entry !== undefined, ...options } })
  }
  if (plan.headline === null) problem('A1', 'the header has no Headline column (the advice each row gives)')
  if (plan.conditions.length === 0) problem('A1', 'the header names no condition column: name a variable as {{Name}}')
  return plan
}

/**
 * Reads a sheet (rows of cells, the header first) into a table. `dictionary`: the set's entries by lower-case name.
 * Errors are by cell; a table with errors has no rows worth importing, but the rows read are listed for the preview.
 */
export function readDecisionTable(grid: Grid, dictionary: ReadonlyMap<string, DictionaryEntry>): ReadTable {
  const errors: CellProblem[] = []
  let moreErrors = 0
  const problem = (cell: string, message: string) => {
    if (errors.length < MAX_LISTED_PROBLEMS) errors.push({ cell, message: `${cell}: ${message}` })
    else moreErrors++
  }
  const notes: ReadTable['notes'] = []
  if (grid.length === 0 || grid[0]!.every((c) => cellText(c) === '')) {
    problem('A1', 'the sheet is empty: its first row names the columns ({{Variable}} …, Headline, Text)')
    return { table: { columns: [], rows: [] }, errors, moreErrors, notes }
  }
  const plan = readHeader(grid, dictionary, problem)
  const columns = plan.conditions.map((c) => c.column)

  // The body's rows (blank rows are skipped), each condition cell split into items.
  interface Pending { r: number; cells: Array<RawItem[] | null>; headline: string; text: string | null }
  const pending: Pending[] = []
  for (let r = 1; r < grid.length; r++) {
    const row = grid[r]!
    if (row.every((c) => cellText(c) === '')) continue
    if (pending.length === MAX_TABLE_ROWS) {
      problem(cellName(r, 0), `a table has at most ${MAX_TABLE_ROWS} rows`)
      break
    }
    const cells = plan.conditions.map(({ index }) => {
      const text = cellText(row[index])
      if (text.length > MAX_CONDITION_CELL) {
        problem(cellName(r, index), `a condition has at most ${MAX_CONDITION_CELL} characters`)
        return null
      }
      const items = tokenizeCell(text)
      if (typeof items === 'string') {
        problem(cellName(r, index), items)
        return null
      }
      return items
    })
    const output = (index: number | null, label: string): string | null => {
      if (index === null) return null
      const text = cellText(row[index])
      if (text.length > MAX_OUTPUT_CELL) problem(cellName(r, index), `the ${label} has at most ${MAX_OUTPUT_CELL} characters`)
      // eslint-disable-next-line no-control-regex
      else if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(text)) problem(cellName(r, index), `the ${label} holds control characters`)
      return text === '' ? null : text
    }
    const headline = output(plan.headline, 'headline')
    if (plan.headline !== null && headline === null) problem(cellName(r, plan.headline), 'the headline is empty: every row gives advice')
    pending.push({ r, cells, headline: headline ?? '', text: output(plan.text, 'text') })
  }

  columns.forEach((column, i) => {
    if (column.known) return
    column.kind = inferKind(pending.flatMap((p) => p.cells[i] ?? []))
    const what = column.ref === 'variable' ? `{{${column.name}}}` : `[[${column.name}]]`
    notes.push({ cell: column.cell, message: `${column.cell}: ${what} is not in the dictionary: its cells are read as ${column.kind === 'boolean' ? 'true/false' : column.kind}. Create it from the rule editor, or correct the name.` })
  })

  const rows: TableRow[] = pending.map((p) => {
    const conditions: TableCondition[] = []
    p.cells.forEach((items, i) => {
      const { index, column } = plan.conditions[i]!
      const cell = cellName(p.r, index)
      const source = cellText(grid[p.r]![index])
      if (items === null) return
      const comparisons: Comparison[] = []
      for (const item of items) {
        const comparison = comparisonOf(item, column)
        if (typeof comparison === 'string') {
          problem(cell, comparison)
          return
        }
        comparisons.push(comparison)
      }
      conditions.push({ column: i, cell, source, items: comparisons })
    })
    return { row: p.r + 1, conditions, headline: p.headline, text: p.text, expression: rowExpression(columns, conditions) }
  })
  if (errors.length === 0 && moreErrors === 0 && rows.length === 0) problem('A2', 'the table has no rows below its header')
  return { table: { columns, rows }, errors, moreErrors, notes }
}

// The rule tree ------------------------------------------------------------------------------------------------------

const SPAN = { start: 0, end: 0 }

function literalOf(column: ConditionColumn, value: Comparison['value']): LiteralExpr {
  if (column.kind === 'date' && typeof value === 'string') return { type: 'literal', value: new Date(`${value}T00:00:00Z`), span: SPAN }
  return { type: 'literal', value, span: SPAN }
}

function joined(op: '&&' | '||', terms: Expr[]): Expr {
  return terms.reduce((left, right): BinaryExpr => ({ type: 'binary', op, left, right, span: SPAN }))
}

/** The row's condition as the engine reads it, or null when every cell is "any". */
export function rowExpression(columns: readonly ConditionColumn[], conditions: readonly TableCondition[]): string | null {
  const terms: Expr[] = []
  for (const condition of conditions) {
    if (condition.items.length === 0) continue
    const column = columns[condition.column]!
    const ref: RefExpr = { type: 'ref', kind: column.ref, name: column.name, span: SPAN }
    terms.push(joined('||', condition.items.map((item): BinaryExpr => ({ type: 'binary', op: item.op, left: ref, right: literalOf(column, item.value), span: SPAN }))))
  }
  return terms.length === 0 ? null : printExpression(joined('&&', terms))
}

/** A node to create, with its children: what the rule-node service checks and inserts. */
export interface TableNodeSpec {
  type: NodeType
  expression?: string
  headline?: string
  text?: string | null
  children: TableNodeSpec[]
}

/** The rule's roots: one per row, in row order. */
export function tableTree(table: DecisionTable, hitPolicy: HitPolicy): TableNodeSpec[] {
  return table.rows.map((row) => {
    const advice: TableNodeSpec = { type: 'advice', headline: row.headline, text: row.text, children: [] }
    const children = hitPolicy === 'first' ? [advice, { type: 'ruleExit' as const, children: [] }] : [advice]
    return row.expression === null ? { type: 'conditionAlways', children } : { type: 'condition', expression: row.expression, children }
  })
}

// Reading a rule tree back -------------------------------------------------------------------------------------------

/** A rule tree read as a table, or why it is not one. */
export type TableShape = { ok: true; table: DecisionTable; hitPolicy: HitPolicy } | { ok: false; reason: string }

const COMPARISON_OPS = new Set(['==', '<', '<=', '>', '>='])

function flatten(expr: Expr, op: '&&' | '||'): Expr[] {
  return expr.type === 'binary' && expr.op === op ? [...flatten(expr.left, op), ...flatten(expr.right, op)] : [expr]
}

interface Term { ref: RefExpr; items: Array<{ op: TestOp; literal: LiteralExpr['value'] }> }

function termOf(expr: Expr): Term | null {
  const parts = flatten(expr, '||')
  let ref: RefExpr | null = null
  const items: Term['items'] = []
  for (const part of parts) {
    if (part.type !== 'binary' || !COMPARISON_OPS.has(part.op) || part.left.type !== 'ref' || part.left.kind === 'bare' || part.right.type !== 'literal') return null
    if (ref && (ref.kind !== part.left.kind || ref.name.toLowerCase() !== part.left.name.toLowerCase())) return null
    ref = part.left
    items.push({ op: part.op as TestOp, literal: part.right.value })
  }
  return ref ? { ref, items } : null
}

function literalKind(value: LiteralExpr['value']): ColumnKind {
  if (typeof value === 'number') return 'number'
  if (typeof value === 'boolean') return 'boolean'
  if (value instanceof Date) return 'date'
  return 'text'
}

/** A node with a label a message can name. */
function nodeLabel(node: NodeModel): string {
  return `node ${node.id}`
}

/**
 * The table a rule's tree is, when it has the shape tableTree makes (see the file's head): else the first reason it
 * is not. `dictionary` (by lower-case name) decides which column kinds a cell may hold, as an import would.
 */
export function tableOfTree(roots: readonly NodeModel[], dictionary: ReadonlyMap<string, DictionaryEntry>): TableShape {
  const no = (reason: string): TableShape => ({ ok: false, reason })
  if (roots.length === 0) return no('The rule has no nodes: a table has at least one row.')
  if (roots.length > MAX_TABLE_ROWS) return no(`The rule has ${roots.length} top-level nodes: a table has at most ${MAX_TABLE_ROWS} rows.`)
  let hitPolicy: HitPolicy | null = null
  const columns: ConditionColumn[] = []
  const columnKeys: string[] = []
  const rows: TableRow[] = []
  for (const [index, root] of roots.entries()) {
    const rowNumber = index + 2
    if (root.type !== 'condition' && root.type !== 'conditionAlways') {
      return no(`Its top-level ${nodeLabel(root)} is a ${root.type}: a table's rule has only Condition nodes at the top, one per row.`)
    }
    const [advice, exit, ...extra] = root.children
    const policy: HitPolicy = exit ? 'first' : 'collect'
    if (!advice || advice.type !== 'advice' || extra.length > 0 || (exit && exit.type !== 'ruleExit')) {
      return no(`Under ${nodeLabel(root)}: a row holds one Advice node, then a Rule Exit (hit policy first) or nothing more (collect).`)
    }
    if (advice.children.length > 0 || (exit && exit.children.length > 0)) return no(`Under ${nodeLabel(root)}: the Advice and Rule Exit of a row have no children.`)
    if ((advice.tags?.length ?? 0) > 0 || (advice.sources?.length ?? 0) > 0) return no(`The Advice ${nodeLabel(advice)} has tags or sources, which a table's cells cannot hold.`)
    if (!advice.headline) return no(`The Advice ${nodeLabel(advice)} has no headline.`)
    if (hitPolicy !== null && policy !== hitPolicy) return no(`Rows end differently: some with a Rule Exit (first match) and some without (collect). ${nodeLabel(root)} is row ${rowNumber}.`)
    hitPolicy = policy

    const conditions: TableCondition[] = []
    if (root.type === 'condition') {
      let expr: Expr
      try {
        expr = parseExpression(root.expression ?? '', { mode: 'condition' })
      } catch {
        return no(`The condition of ${nodeLabel(root)} does not parse.`)
      }
      const seen = new Map<string, number>()
      let last = -1
      for (const part of flatten(expr, '&&')) {
        const term = termOf(part)
        if (!term) return no(`The condition of ${nodeLabel(root)} (${root.expression}) is not cells joined with &&: each part compares one variable or formula with a value (==, <, <=, >, >=), or lists such comparisons joined with ||.`)
        const name = term.ref.name
        const nameKey = `${term.ref.kind}:${name.toLowerCase()}`
        const occurrence = seen.get(nameKey) ?? 0
        seen.set(nameKey, occurrence + 1)
        const key = `${nameKey}#${occurrence}`
        let at = columnKeys.indexOf(key)
        const kinds = new Set(term.items.map((i) => literalKind(i.literal)))
        if (kinds.size > 1) return no(`The condition of ${nodeLabel(root)} compares ${name} with values of different kinds.`)
        const kind = [...kinds][0]!
        if (at === -1) {
          const entry = dictionary.get(name.toLowerCase())
          const typed = entry ? kindOfDataType(entry.dataType) : kind
          if (typed !== kind) return no(`${name} is ${typed === 'list' ? 'a list' : typed} in the dictionary, but ${nodeLabel(root)} compares it with ${kind === 'boolean' ? 'true/false' : kind}.`)
          at = columns.length
          columnKeys.push(key)
          const options = entry && entry.isClosedSet && entry.options.length > 0 && kind === 'text' ? { options: entry.options } : {}
          columns.push({ cell: cellName(0, at), ref: term.ref.kind === 'formula' ? 'formula' : 'variable', name: entry?.name ?? name, kind, known: entry !== undefined, ...options })
        } else if (columns[at]!.kind !== kind) {
          return no(`${name} is compared with ${columns[at]!.kind} in one row and with ${kind} in ${nodeLabel(root)}.`)
        }
        if (at < last) return no(`${nodeLabel(root)} tests ${columns[last]!.name} before ${name}, unlike an earlier row: a table's columns keep one order. Reorder its condition.`)
        last = at
        if ((kind === 'text' || kind === 'boolean') && term.items.some((i) => i.op !== '==')) return no(`${nodeLabel(root)} compares ${name} with < or >: a table compares ${kind === 'text' ? 'text' : 'true/false'} for equality only.`)
        const items = term.items.map((i) => ({ op: i.op, value: i.literal instanceof Date ? dateToText(i.literal) : i.literal }))
        conditions.push({ column: at, cell: '', source: '', items })
      }
    }
    rows.push({ row: rowNumber, conditions, headline: advice.headline, text: advice.text || null, expression: root.type === 'condition' ? root.expression ?? null : null })
  }
  if (columns.length === 0) return no('No row tests a variable: a table has at least one condition column.')
  if (columns.length + 2 > MAX_TABLE_COLUMNS) return no(`The table would have ${columns.length + 2} columns: at most ${MAX_TABLE_COLUMNS}.`)
  const table: DecisionTable = { columns, rows }
  for (const row of rows) for (const condition of row.conditions) {
    condition.cell = cellName(row.row - 1, condition.column)
    condition.source = cellSource(columns[condition.column]!, condition.items)
  }
  return { ok: true, table, hitPolicy: hitPolicy! }
}

// Writing a table as a sheet -------------------------------------------------------------------------------------------

/** Text that an import would read as something else unless quoted. */
function needsQuotes(text: string): boolean {
  return text === '' || text === '-' || text !== text.trim() || /[,"'\n]|^[<>=]/.test(text) || numberOf(text) !== null || dateOf(text) !== null || booleanOf(text) !== null
}

function valueSource(column: ConditionColumn, value: Comparison['value']): string {
  if (typeof value === 'number') return String(value)
  if (typeof value === 'boolean') return String(value)
  if (column.kind === 'date') return value
  return needsQuotes(value) ? `"${value.replaceAll('"', '""')}"` : value
}

/** A cell's text as the import reads it back into the same comparisons. */
export function cellSource(column: ConditionColumn, items: readonly Comparison[]): string {
  if (items.length === 0) return '-'
  return items.map((item) => `${item.op === '==' ? '' : `${item.op} `}${valueSource(column, item.value)}`).join(', ')
}

/** The table as sheet rows: the header, then one row per table row (a single plain number stays a number). */
export function tableGrid(table: DecisionTable): Grid {
  const header: GridCell[] = [...table.columns.map((c) => (c.ref === 'variable' ? `{{${c.name}}}` : `[[${c.name}]]`)), 'Headline', 'Text']
  const body = table.rows.map((row): GridCell[] => {
    const cells: GridCell[] = table.columns.map(() => '-')
    for (const condition of row.conditions) {
      const only = condition.items.length === 1 ? condition.items[0]! : null
      cells[condition.column] = only && only.op === '==' && typeof only.value === 'number' ? only.value : cellSource(table.columns[condition.column]!, condition.items)
    }
    return [...cells, row.headline, row.text ?? '']
  })
  return [header, ...body]
}
