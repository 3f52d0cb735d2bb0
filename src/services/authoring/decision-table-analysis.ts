// Overlapping and unreachable rows of a decision table (issue 28, point 5). Exact for the cells tables hold: a
// number or date cell is a union of intervals, a text or true/false cell a finite set of values (or, for "any", all
// values but a finite set: none), so a row is a box of such sets, one per column. Two rows overlap when their boxes
// meet in every column. Under the hit policy `first` a row is unreachable when the earlier rows' boxes cover its own:
// found by splitting the row's box along an earlier row's cell until each piece lies inside one earlier row or
// outside them all. That split can grow with the number of columns, so it is bounded: MAX_COVER_STEPS pieces for the
// whole table; past that the rows left are said to be unchecked, never guessed.
import type { ConditionColumn, DecisionTable, HitPolicy, TableRow } from './decision-table.ts'

/** Pieces the unreachable-row search may look at, for the whole table. */
export const MAX_COVER_STEPS = 5_000
/** Warnings listed at most. */
export const MAX_WARNINGS = 200

export interface TableWarning { rows: number[]; message: string }

// Sets of one column ---------------------------------------------------------------------------------------------------

interface Interval { lo: number; loOpen: boolean; hi: number; hiOpen: boolean }
/** Disjoint, sorted intervals of the real line. */
interface Intervals { kind: 'intervals'; list: Interval[] }
/** A finite set of values (`in`), or every value except a finite set (`out`). */
interface Values { kind: 'values'; mode: 'in' | 'out'; set: Set<string> }
type ColumnSet = Intervals | Values

const ALL_REALS: Interval = { lo: -Infinity, loOpen: true, hi: Infinity, hiOpen: true }

function emptyInterval(i: Interval): boolean {
  return i.lo > i.hi || (i.lo === i.hi && (i.loOpen || i.hiOpen))
}

function normalize(list: Interval[]): Interval[] {
  const sorted = list.filter((i) => !emptyInterval(i)).sort((a, b) => a.lo - b.lo || Number(a.loOpen) - Number(b.loOpen))
  const out: Interval[] = []
  for (const i of sorted) {
    const last = out[out.length - 1]
    // Touching intervals join when the point between them belongs to one of them.
    if (last && (i.lo < last.hi || (i.lo === last.hi && (!i.loOpen || !last.hiOpen)))) {
      if (i.hi > last.hi || (i.hi === last.hi && !i.hiOpen)) { last.hi = i.hi; last.hiOpen = i.hiOpen }
    } else out.push({ ...i })
  }
  return out
}

function intersectIntervals(a: Interval[], b: Interval[]): Interval[] {
  const out: Interval[] = []
  for (const x of a) for (const y of b) {
    const lo = Math.max(x.lo, y.lo)
    const hi = Math.min(x.hi, y.hi)
    const loOpen = x.lo === y.lo ? x.loOpen || y.loOpen : x.lo > y.lo ? x.loOpen : y.loOpen
    const hiOpen = x.hi === y.hi ? x.hiOpen || y.hiOpen : x.hi < y.hi ? x.hiOpen : y.hiOpen
    const i = { lo, loOpen, hi, hiOpen }
    if (!emptyInterval(i)) out.push(i)
  }
  return normalize(out)
}

function complementIntervals(a: Interval[]): Interval[] {
  const out: Interval[] = []
  let lo = -Infinity
  let loOpen = true
  for (const i of a) {
    out.push({ lo, loOpen, hi: i.lo, hiOpen: !i.loOpen })
    lo = i.hi
    loOpen = !i.hiOpen
  }
  out.push({ lo, loOpen, hi: Infinity, hiOpen: true })
  return normalize(out)
}

function intersect(a: ColumnSet, b: ColumnSet): ColumnSet {
  if (a.kind === 'intervals' && b.kind === 'intervals') return { kind: 'intervals', list: intersectIntervals(a.list, b.list) }
  const x = a as Values
  const y = b as Values
  if (x.mode === 'in' && y.mode === 'in') return { kind: 'values', mode: 'in', set: new Set([...x.set].filter((v) => y.set.has(v))) }
  if (x.mode === 'in') return { kind: 'values', mode: 'in', set: new Set([...x.set].filter((v) => !y.set.has(v))) }
  if (y.mode === 'in') return { kind: 'values', mode: 'in', set: new Set([...y.set].filter((v) => !x.set.has(v))) }
  return { kind: 'values', mode: 'out', set: new Set([...x.set, ...y.set]) }
}

function complement(a: ColumnSet): ColumnSet {
  if (a.kind === 'intervals') return { kind: 'intervals', list: complementIntervals(a.list) }
  return { kind: 'values', mode: a.mode === 'in' ? 'out' : 'in', set: a.set }
}

function isEmpty(a: ColumnSet): boolean {
  return a.kind === 'intervals' ? a.list.length === 0 : a.mode === 'in' && a.set.size === 0
}

/** a ⊆ b */
function within(a: ColumnSet, b: ColumnSet): boolean {
  return isEmpty(intersect(a, complement(b)))
}

function anyValue(column: ConditionColumn): ColumnSet {
  if (column.kind === 'number' || column.kind === 'date') return { kind: 'intervals', list: [ALL_REALS] }
  if (column.kind === 'boolean') return { kind: 'values', mode: 'in', set: new Set(['true', 'false']) }
  if (column.options) return { kind: 'values', mode: 'in', set: new Set(column.options) }
  return { kind: 'values', mode: 'out', set: new Set() }
}

function pointOf(value: number | string | boolean): number {
  return typeof value === 'number' ? value : Date.parse(`${String(value)}T00:00:00Z`) / 86_400_000
}

function cellSet(column: ConditionColumn, items: TableRow['conditions'][number]['items']): ColumnSet {
  if (items.length === 0) return anyValue(column)
  if (column.kind === 'number' || column.kind === 'date') {
    return {
      kind: 'intervals',
      list: normalize(items.map(({ op, value }) => {
        const p = pointOf(value)
        switch (op) {
          case '==': return { lo: p, loOpen: false, hi: p, hiOpen: false }
          case '<': return { lo: -Infinity, loOpen: true, hi: p, hiOpen: true }
          case '<=': return { lo: -Infinity, loOpen: true, hi: p, hiOpen: false }
          case '>': return { lo: p, loOpen: true, hi: Infinity, hiOpen: true }
          case '>=': return { lo: p, loOpen: false, hi: Infinity, hiOpen: true }
        }
      })),
    }
  }
  return intersect(anyValue(column), { kind: 'values', mode: 'in', set: new Set(items.map((i) => String(i.value))) })
}

type Box = ColumnSet[]

/** A row's box: per column, the values its cells let through (several columns may test one variable: they meet). */
function boxOf(table: DecisionTable, row: TableRow): Box {
  const box = table.columns.map(anyValue)
  for (const condition of row.conditions) box[condition.column] = intersect(box[condition.column]!, cellSet(table.columns[condition.column]!, condition.items))
  // Columns on the same variable narrow one another.
  const byName = new Map<string, number[]>()
  table.columns.forEach((c, i) => byName.set(`${c.ref}:${c.name.toLowerCase()}`, [...(byName.get(`${c.ref}:${c.name.toLowerCase()}`) ?? []), i]))
  for (const indexes of byName.values()) {
    if (indexes.length < 2) continue
    const met = indexes.map((i) => box[i]!).reduce(intersect)
    for (const i of indexes) box[i] = met
  }
  return box
}

function boxEmpty(box: Box): boolean {
  return box.some(isEmpty)
}

function boxesMeet(a: Box, b: Box): boolean {
  return a.every((set, i) => !isEmpty(intersect(set, b[i]!)))
}

/** Whether the earlier boxes cover `box`; null when the step budget ran out first. */
function covered(box: Box, earlier: Box[], budget: { steps: number }): boolean | null {
  if (--budget.steps < 0) return null
  const meeting = earlier.filter((e) => boxesMeet(box, e))
  if (meeting.length === 0) return false
  for (const e of meeting) if (box.every((set, i) => within(set, e[i]!))) return true
  // Split along the first meeting box's first column that does not hold this box's values.
  const splitter = meeting[0]!
  const column = box.findIndex((set, i) => !within(set, splitter[i]!))
  const inside = intersect(box[column]!, splitter[column]!)
  const outside = intersect(box[column]!, complement(splitter[column]!))
  const first = covered(box.map((s, i) => (i === column ? inside : s)), meeting, budget)
  if (first !== true) return first
  return covered(box.map((s, i) => (i === column ? outside : s)), meeting, budget)
}

function rowList(rows: number[]): string {
  return rows.length === 1 ? `row ${rows[0]}` : `rows ${rows.slice(0, -1).join(', ')} and ${rows[rows.length - 1]}`
}

/**
 * The table's warnings: rows that can never match, rows that overlap earlier rows (under `first` the later one is
 * shadowed where they meet; under `collect` both give advice there), and under `first` rows the earlier rows cover
 * (never reached). Row numbers are the sheet's.
 */
export function analyseTable(table: DecisionTable, hitPolicy: HitPolicy): TableWarning[] {
  const warnings: TableWarning[] = []
  let unlisted = 0
  const warn = (rows: number[], message: string) => {
    if (warnings.length < MAX_WARNINGS) warnings.push({ rows, message })
    else unlisted++
  }
  const boxes = table.rows.map((row) => boxOf(table, row))
  const budget = { steps: MAX_COVER_STEPS }
  let stoppedAt: number | null = null
  table.rows.forEach((row, j) => {
    const box = boxes[j]!
    if (boxEmpty(box)) {
      warn([row.row], `Row ${row.row} can never match: its cells on one variable exclude each other.`)
      return
    }
    const earlier: number[] = []
    const earlierBoxes: Box[] = []
    for (let i = 0; i < j; i++) {
      if (boxEmpty(boxes[i]!) || !boxesMeet(box, boxes[i]!)) continue
      earlier.push(table.rows[i]!.row)
      earlierBoxes.push(boxes[i]!)
    }
    if (earlier.length === 0) return
    if (hitPolicy === 'collect') {
      warn([row.row, ...earlier], `Row ${row.row} overlaps ${rowList(earlier)}: where they meet, each gives its advice.`)
      return
    }
    const full = stoppedAt === null ? covered(box, earlierBoxes, budget) : null
    if (full === null && stoppedAt === null) stoppedAt = row.row
    if (full === true) warn([row.row, ...earlier], `Row ${row.row} is never reached: ${rowList(earlier)} ${earlier.length === 1 ? 'matches' : 'match'} every case it matches, and the first match wins.`)
    else warn([row.row, ...earlier], `Row ${row.row} overlaps ${rowList(earlier)}: where they meet, the earlier row wins and row ${row.row} is skipped.`)
  })
  if (stoppedAt !== null) warn([stoppedAt], `Rows from ${stoppedAt} on were not checked for being unreachable: their overlaps are too many to check (over ${MAX_COVER_STEPS} cases).`)
  if (unlisted > 0) warnings.push({ rows: [], message: `${unlisted} more warnings are not listed.` })
  return warnings
}
