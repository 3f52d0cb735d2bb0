// What a condition says about single variables, as a conjunction of comparisons with constants. Used to find
// conditions that can never hold (static checks) and to pick inputs that make a path's conditions hold
// (branches). Anything this cannot read exactly (or, functions, two variables) is simply left out, so a
// contradiction found here is a real one.
import type { BinaryOp, Expr } from '../expr/ast.ts'

export type CompareOp = '<' | '>' | '<=' | '>=' | '==' | '!='
export type AtomValue = number | string | boolean | Date

export interface Atom {
  /** Variable name as written; formulas are never constrained. */
  name: string
  op: CompareOp
  value: AtomValue
}

export interface ConditionFacts {
  atoms: Atom[]
  /** The condition is the constant false (e.g. `false`, `1 > 2`). */
  alwaysFalse: boolean
}

const NEGATED: Record<CompareOp, CompareOp> = { '<': '>=', '>': '<=', '<=': '>', '>=': '<', '==': '!=', '!=': '==' }
const MIRRORED: Record<CompareOp, CompareOp> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=', '==': '==', '!=': '!=' }
const COMPARE_OPS: ReadonlySet<BinaryOp> = new Set(['<', '>', '<=', '>=', '==', '!='])

/** Facts that hold whenever `expr` is true (or, with `negated`, whenever it is false). */
export function conditionFacts(expr: Expr, negated = false): ConditionFacts {
  const facts: ConditionFacts = { atoms: [], alwaysFalse: false }
  collect(expr, negated, facts)
  return facts
}

function collect(expr: Expr, negated: boolean, facts: ConditionFacts): void {
  switch (expr.type) {
    case 'unary':
      if (expr.op === '!') collect(expr.operand, !negated, facts)
      return
    case 'literal':
      if (typeof expr.value === 'boolean' && expr.value === negated) facts.alwaysFalse = true
      return
    case 'ref':
      if (expr.kind !== 'formula') facts.atoms.push({ name: expr.name, op: '==', value: !negated })
      return
    case 'binary': {
      // a && b holds => both hold; !(a || b) holds => neither holds. Other combinations are disjunctions.
      if ((expr.op === '&&' && !negated) || (expr.op === '||' && negated)) {
        collect(expr.left, negated, facts)
        collect(expr.right, negated, facts)
        return
      }
      if (!COMPARE_OPS.has(expr.op)) return
      const op = (negated ? NEGATED[expr.op as CompareOp] : expr.op) as CompareOp
      const left = constantOrRef(expr.left)
      const right = constantOrRef(expr.right)
      if (left?.kind === 'ref' && right?.kind === 'constant') facts.atoms.push({ name: left.name, op, value: right.value })
      else if (left?.kind === 'constant' && right?.kind === 'ref') {
        facts.atoms.push({ name: right.name, op: MIRRORED[op], value: left.value })
      } else if (left?.kind === 'constant' && right?.kind === 'constant') {
        if (!holds({ name: '', op, value: right.value }, left.value)) facts.alwaysFalse = true
      }
      return
    }
    default:
      return
  }
}

type Operand = { kind: 'ref'; name: string } | { kind: 'constant'; value: AtomValue }

function constantOrRef(expr: Expr): Operand | undefined {
  if (expr.type === 'ref' && expr.kind !== 'formula') return { kind: 'ref', name: expr.name }
  if (expr.type === 'literal') return { kind: 'constant', value: expr.value }
  if (expr.type === 'unary' && expr.op === '-' && expr.operand.type === 'literal' && typeof expr.operand.value === 'number') {
    return { kind: 'constant', value: -expr.operand.value }
  }
  return undefined
}

function comparable(value: AtomValue): number | string | boolean {
  return value instanceof Date ? value.getTime() : value
}

/** Whether `value` satisfies the atom, with the engine's meaning of each operator on same-kind values. */
export function holds(atom: Atom, value: AtomValue): boolean {
  const a = comparable(value)
  const b = comparable(atom.value)
  const sameKind = typeof a === typeof b && value instanceof Date === atom.value instanceof Date
  switch (atom.op) {
    case '==':
      return sameKind && a === b
    case '!=':
      return !sameKind || a !== b
    case '<':
      return sameKind && typeof a !== 'boolean' && a < b
    case '>':
      return sameKind && typeof a !== 'boolean' && a > b
    case '<=':
      return sameKind && typeof a !== 'boolean' && a <= b
    case '>=':
      return sameKind && typeof a !== 'boolean' && a >= b
  }
}

/** Atoms grouped by variable name, in first-seen order. */
export function byVariable(atoms: readonly Atom[]): Map<string, Atom[]> {
  const groups = new Map<string, Atom[]>()
  for (const atom of atoms) {
    const group = groups.get(atom.name)
    if (group) group.push(atom)
    else groups.set(atom.name, [atom])
  }
  return groups
}

/**
 * Values worth trying for a variable constrained by `atoms`: each constant, its neighbours (one step in the
 * constant's last decimal place, then half a step; one day for dates) and midpoints, in a fixed order so the
 * search is deterministic.
 */
export function candidateValues(atoms: readonly Atom[]): AtomValue[] {
  const seen = new Set<string>()
  const out: AtomValue[] = []
  const add = (value: AtomValue): void => {
    const key = `${typeof value}:${value instanceof Date ? value.getTime() : String(value)}`
    if (seen.has(key)) return
    seen.add(key)
    out.push(value)
  }
  const numbers: number[] = []
  const dates: number[] = []
  for (const atom of atoms) {
    if (typeof atom.value === 'number') numbers.push(atom.value)
    else if (atom.value instanceof Date) dates.push(atom.value.getTime())
  }
  numbers.sort((x, y) => x - y)
  dates.sort((x, y) => x - y)
  for (const atom of atoms) if (atom.op === '==') add(atom.value)
  for (const n of numbers) add(n)
  for (const n of numbers) {
    add(n + step(n))
    add(n - step(n))
  }
  for (let i = 0; i + 1 < numbers.length; i++) add((numbers[i]! + numbers[i + 1]!) / 2)
  for (const n of numbers) {
    add(n + step(n) / 2)
    add(n - step(n) / 2)
  }
  const day = 86_400_000
  for (const d of dates) add(new Date(d))
  for (const d of dates) {
    add(new Date(d + day))
    add(new Date(d - day))
  }
  for (const atom of atoms) if (typeof atom.value === 'boolean') add(atom.value)
  for (const atom of atoms) {
    if (typeof atom.value === 'boolean') add(!atom.value)
    if (typeof atom.value === 'string') add(atom.value)
  }
  return out
}

/** 1 for whole numbers, else one unit in the last decimal place written (0.05 → 0.01), so neighbours look like the constant. */
function step(n: number): number {
  if (Number.isInteger(n)) return 1
  const decimals = Math.min((String(n).split('.')[1] ?? '').length, 10)
  return 10 ** -decimals
}

/**
 * Whether some value satisfies all atoms on one variable. Exact for numbers and dates (interval with excluded
 * points over the reals), strings and booleans; mixed kinds are not judged (treated as satisfiable).
 */
export function satisfiable(atoms: readonly Atom[]): boolean {
  const kinds = new Set(atoms.map((atom) => (atom.value instanceof Date ? 'date' : typeof atom.value)))
  if (kinds.size !== 1) return true
  const kind = [...kinds][0]
  if (kind === 'number' || kind === 'date') return intervalSatisfiable(atoms)
  if (kind === 'boolean') return [true, false].some((value) => atoms.every((atom) => holds(atom, value)))
  // Strings: an equality decides; otherwise only order comparisons could contradict, which we do not judge.
  const equal = atoms.find((atom) => atom.op === '==')
  if (equal) return atoms.every((atom) => holds(atom, equal.value))
  return true
}

function intervalSatisfiable(atoms: readonly Atom[]): boolean {
  let lo = -Infinity
  let loOpen = true
  let hi = Infinity
  let hiOpen = true
  const excluded: number[] = []
  for (const atom of atoms) {
    const v = comparable(atom.value) as number
    switch (atom.op) {
      case '==':
        return atoms.every((other) => holds(other, atom.value))
      case '!=':
        excluded.push(v)
        break
      case '>':
      case '>=':
        if (v > lo || (v === lo && atom.op === '>')) {
          lo = v
          loOpen = atom.op === '>'
        }
        break
      case '<':
      case '<=':
        if (v < hi || (v === hi && atom.op === '<')) {
          hi = v
          hiOpen = atom.op === '<'
        }
        break
    }
  }
  if (lo < hi) return true
  return lo === hi && !loOpen && !hiOpen && !excluded.includes(lo)
}

/** A readable statement of an atom, e.g. `{{Age}} >= 18`. */
export function describeAtom(atom: Atom): string {
  const value =
    typeof atom.value === 'string'
      ? JSON.stringify(atom.value)
      : atom.value instanceof Date
        ? atom.value.toISOString().slice(0, 10)
        : String(atom.value)
  return `{{${atom.name}}} ${atom.op} ${value}`
}
