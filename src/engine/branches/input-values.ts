// Candidate answers per variable: values the advice set compares the variable with (and their neighbours),
// its options, both booleans, then a plain value of its type. Each candidate is kept with the raw answer that
// produces it, found by coercing the raw answer exactly as a run will.
import { RESERVED_SLOTS } from '../tree/slots.ts'
import type { CompiledAdviceSet, VariableSlot } from '../tree/compiled.ts'
import type { Expr } from '../expr/ast.ts'
import { childExpressions, references } from '../expr/references.ts'
import { candidateValues, holds } from '../checks/constraints.ts'
import type { Atom, AtomValue } from '../checks/constraints.ts'
import { coerceInput } from '../types/index.ts'
import { dateToText } from '../value.ts'
import type { Value } from '../value.ts'

export interface Candidate {
  raw: unknown
  value: Value
}

/**
 * Variables a branch gives answers for: not reserved, not constant, and not only ever computed (a variable that
 * assignments or API calls set and no question asks comes from the run, not from the caller).
 */
export function inputVariables(compiled: CompiledAdviceSet): number[] {
  const asked = new Set<number>()
  const computed = new Set<number>()
  for (const node of compiled.nodeById.values()) {
    if (node.slot < 0) continue
    if (node.type === 'inputRequest') asked.add(node.slot)
    else if (node.type === 'variableAssignment' || node.type === 'apiCall') computed.add(node.slot)
  }
  const out: number[] = []
  compiled.variables.forEach((slot, index) => {
    if (index < RESERVED_SLOTS || slot.isConstant) return
    if (computed.has(index) && !asked.has(index)) return
    out.push(index)
  })
  return out
}

/**
 * Candidates for one variable, in preference order: values from the path's own comparisons first, then from every
 * comparison in the set and the type's plain values; only those fitting `pathAtoms`. The set-wide part is the same
 * for every path, so it is coerced once (`general`); `limit` stops once that many are found (a search never looks
 * further than its attempt budget).
 */
export function candidatesFor(slot: VariableSlot, pathAtoms: readonly Atom[], general: GeneralCandidates, limit = Infinity): Candidate[] {
  if (pathAtoms.length === 0) return general.unconstrained(limit)
  const out: Candidate[] = []
  const seen = new Set<string>()
  const consider = (candidate: KeyedCandidate) => {
    if (seen.has(candidate.key)) return
    if (!pathAtoms.every((atom) => candidate.value !== null && holds(atom, candidate.value as AtomValue))) return
    seen.add(candidate.key)
    out.push(candidate)
  }
  for (const value of candidateValues(pathAtoms)) {
    const candidate = keyed(toCandidate(slot, value))
    if (candidate) consider(candidate)
    if (out.length >= limit) return out
  }
  for (const candidate of general.list) {
    consider(candidate)
    if (out.length >= limit) return out
  }
  return out
}

interface KeyedCandidate extends Candidate {
  /** The raw answer as JSON: two candidates with the same key are the same answer. */
  key: string
}

function keyed(candidate: Candidate | undefined): KeyedCandidate | undefined {
  return candidate && { ...candidate, key: JSON.stringify(candidate.raw) }
}

/**
 * A variable's candidates from every comparison in the set and its type's plain values, coerced once, each once. A
 * variable the set divides by (`divisor`) tries 0 last: an answer that makes a run divide by zero is rarely the one
 * wanted, and a run that reaches a path without an error is preferred anyway.
 */
export class GeneralCandidates {
  readonly list: KeyedCandidate[] = []
  private readonly prefixes = new Map<number, Candidate[]>()

  constructor(slot: VariableSlot, allAtoms: readonly Atom[], now: Date, divisor = false) {
    const seen = new Set<string>()
    for (const value of [...candidateValues(allAtoms), ...typeDefaults(slot, now)]) {
      const candidate = keyed(toCandidate(slot, value))
      if (!candidate || seen.has(candidate.key)) continue
      seen.add(candidate.key)
      this.list.push(candidate)
    }
    const zero = divisor ? this.list.findIndex((candidate) => candidate.value === 0) : -1
    if (zero >= 0) this.list.push(...this.list.splice(zero, 1))
  }

  /** The first `limit` candidates, for a path that says nothing about the variable (the same for every such path). */
  unconstrained(limit: number): Candidate[] {
    let prefix = this.prefixes.get(limit)
    if (prefix === undefined) {
      prefix = this.list.slice(0, limit)
      this.prefixes.set(limit, prefix)
    }
    return prefix
  }
}

/**
 * Variables some expression of the set divides by: read, directly or through formulas, by the right side of a `/`
 * in a condition, an assignment, a Formula node or a dictionary formula.
 */
export function divisorVariables(compiled: CompiledAdviceSet): Set<string> {
  const divisors = new Set<string>()
  const formulaVariables = new Map<string, Set<string>>()
  const variablesOf = (expr: Expr, seen: Set<string> = new Set()): Set<string> => {
    const refs = references(expr)
    const out = new Set([...refs.variables, ...refs.bare.filter((name) => !compiled.bareFormulas.has(name))])
    for (const name of [...refs.formulas, ...refs.bare.filter((name) => compiled.bareFormulas.has(name))]) {
      if (seen.has(name)) continue
      seen.add(name)
      let known = formulaVariables.get(name)
      if (known === undefined) {
        const ast = compiled.formulas[compiled.formulaIndex.get(name) ?? -1]?.ast
        known = ast ? variablesOf(ast, seen) : new Set()
        formulaVariables.set(name, known)
      }
      for (const variable of known) out.add(variable)
    }
    return out
  }
  const visit = (expr: Expr): void => {
    if (expr.type === 'binary' && expr.op === '/') for (const name of variablesOf(expr.right)) divisors.add(name)
    childExpressions(expr).forEach(visit)
  }
  for (const node of compiled.nodeById.values()) if (node.ast) visit(node.ast)
  for (const formula of compiled.formulas) if (formula.ast) visit(formula.ast)
  return divisors
}

function typeDefaults(slot: VariableSlot, now: Date): AtomValue[] {
  const options = slot.options ?? []
  switch (slot.dataType) {
    case 'select':
    case 'radio':
      return options
    case 'boolean':
      return [false, true]
    case 'number':
    case 'percent':
      return [0, 1]
    case 'date':
      return [new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))]
    case 'array':
      return options.length > 0 ? options : ['item']
    case 'freetext':
      return ['text']
    default:
      return [0, 'text', false, true]
  }
}

function toRaw(slot: VariableSlot, value: AtomValue): unknown {
  if (value instanceof Date) return dateToText(value)
  if (slot.dataType === 'percent' && typeof value === 'number') return Number((value * 100).toPrecision(12))
  if (slot.dataType === 'array') return [value]
  return value
}

export function toCandidate(slot: VariableSlot, value: AtomValue): Candidate | undefined {
  const raw = toRaw(slot, value)
  if (slot.dataType === undefined) return { raw, value }
  const coerced = coerceInput(slot.dataType, raw, slot.options ? { options: slot.options } : undefined)
  if (!coerced.ok || coerced.value === null) return undefined
  return { raw, value: coerced.value }
}

/** A starting answer as a candidate: the raw answer kept as given, coerced as a run will; undefined when it cannot be. */
export function fixedCandidate(slot: VariableSlot, raw: unknown): Candidate | undefined {
  if (slot.dataType === undefined) return raw === null || raw === undefined ? undefined : { raw, value: raw as Value }
  const coerced = coerceInput(slot.dataType, raw, slot.options ? { options: slot.options } : undefined)
  if (!coerced.ok || coerced.value === null) return undefined
  return { raw, value: coerced.value }
}

/** Raw answers worth trying for a variable compared by `atoms`: each constant and its neighbours, as a run accepts them. */
export function boundaryAnswers(slot: VariableSlot, atoms: readonly Atom[]): unknown[] {
  const seen = new Set<string>()
  const out: unknown[] = []
  for (const value of candidateValues(atoms)) {
    const candidate = toCandidate(slot, value)
    if (!candidate) continue
    const key = JSON.stringify(candidate.raw)
    if (seen.has(key)) continue
    seen.add(key)
    out.push(candidate.raw)
  }
  return out
}
