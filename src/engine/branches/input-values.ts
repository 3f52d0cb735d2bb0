// Candidate answers per variable: values the advice set compares the variable with (and their neighbours),
// its options, both booleans, then a plain value of its type. Each candidate is kept with the raw answer that
// produces it, found by coercing the raw answer exactly as a run will.
import { RESERVED_SLOTS } from '../tree/slots.ts'
import type { CompiledAdviceSet, VariableSlot } from '../tree/compiled.ts'
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

/** Candidates for one variable, in preference order: those fitting `pathAtoms` first (only those, if any). */
export function candidatesFor(slot: VariableSlot, pathAtoms: readonly Atom[], allAtoms: readonly Atom[], now: Date): Candidate[] {
  const values: AtomValue[] = [...candidateValues(pathAtoms), ...candidateValues(allAtoms), ...typeDefaults(slot, now)]
  const out: Candidate[] = []
  const seen = new Set<string>()
  for (const value of values) {
    const candidate = toCandidate(slot, value)
    if (!candidate) continue
    const key = JSON.stringify(candidate.raw)
    if (seen.has(key)) continue
    if (!pathAtoms.every((atom) => candidate.value !== null && holds(atom, candidate.value as AtomValue))) continue
    seen.add(key)
    out.push(candidate)
  }
  return out
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

function toCandidate(slot: VariableSlot, value: AtomValue): Candidate | undefined {
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
