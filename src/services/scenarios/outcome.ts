// A scenario's outcome, pure: what a run gave (actualOutcome), how it compares with what was expected
// (compareOutcomes), and an expected outcome taken from a run (expectedFromRun). No storage, no rights: the run
// machinery, generated branches, the tree builder and the review gate all share these.
import { dateToText, type EngineResult, type Value } from '../../engine/index.ts'
import type { ActualOutcome, ExpectedOutcome, ScenarioDifferences } from '../../db/schema/index.ts'

export type { ActualOutcome, ExpectedOutcome, ScenarioDifferences, ScenarioRunStatus } from '../../db/schema/index.ts'

/** The focus of a run that has nothing left to ask. */
export const FOCUS_COMPLETE = 'complete'

/** A value as an API caller would write it: dates as text (YYYY-MM-DD at midnight UTC), lists item by item. */
export function rawValue(value: Value | undefined): unknown {
  if (value === undefined) return null
  if (value instanceof Date) return dateToText(value)
  if (Array.isArray(value)) return value.map(rawValue)
  return value
}

/** Node ids of every item the run emitted (advice, then assumptions, then examples), each once. */
export function adviceNodeIds(result: EngineResult): string[] {
  const ids = new Set<string>()
  for (const list of [result.advice, result.assumptions, result.examples]) for (const item of list) ids.add(item.nodeId)
  return [...ids]
}

/** What a run gave, with the values of `variableNames`, variables or formulas (null for one that holds none). */
export function actualOutcome(result: EngineResult, variableNames: Iterable<string>): ActualOutcome {
  const variables: Record<string, unknown> = {}
  for (const name of variableNames) variables[name] = rawValue(result.valueOf(name) ?? result.formulaValueOf(name))
  return {
    advice: adviceNodeIds(result),
    focus: result.currentFocus?.nodeId ?? FOCUS_COMPLETE,
    variables,
    errors: result.errors.map((e) => ({ nodeId: e.nodeId, code: e.code, message: e.message })),
  }
}

/**
 * The outcome a run gave, as an expected outcome: its advice and focus, and the values of the variables the author
 * chose (none unless named: a scenario checks only what its author cares about).
 */
export function expectedFromRun(result: EngineResult, opts: { variables?: Iterable<string> } = {}): ExpectedOutcome {
  const { advice, focus, variables } = actualOutcome(result, opts.variables ?? [])
  return { advice, focus, variables }
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/

function closeNumbers(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b))
}

/**
 * Whether an expected raw value matches an actual one. Forgiving about spelling, not about meaning: numbers equal
 * within floating-point noise (also when expected is written as text), true/false also as text, dates by the day
 * they name, lists item by item; null expects no value.
 */
export function sameValue(expected: unknown, actual: unknown): boolean {
  if (expected === null || expected === undefined) return actual === null || actual === undefined
  if (actual === null || actual === undefined) return false
  if (typeof actual === 'number') {
    const wanted = typeof expected === 'string' && expected.trim() !== '' ? Number(expected) : expected
    return typeof wanted === 'number' && closeNumbers(wanted, actual)
  }
  if (typeof actual === 'boolean') {
    return expected === actual || (typeof expected === 'string' && expected.trim().toLowerCase() === String(actual))
  }
  if (Array.isArray(actual)) {
    return Array.isArray(expected) && expected.length === actual.length && expected.every((item, i) => sameValue(item, actual[i]))
  }
  if (typeof actual === 'string' && typeof expected === 'string') {
    if (expected === actual) return true
    return ISO_DATE.test(expected) && ISO_DATE.test(actual) && Date.parse(expected) === Date.parse(actual)
  }
  return false
}

/** Where `actual` differs from `expected`: advice compared as sets, the focus, each expected variable. */
export function compareOutcomes(expected: ExpectedOutcome, actual: ExpectedOutcome): ScenarioDifferences {
  const shown = new Set(actual.advice)
  const wanted = new Set(expected.advice)
  const variables: ScenarioDifferences['variables'] = []
  for (const [name, value] of Object.entries(expected.variables)) {
    const got = actual.variables[name] ?? null
    if (!sameValue(value, got)) variables.push({ name, expected: value, actual: got })
  }
  return {
    missingAdvice: [...wanted].filter((id) => !shown.has(id)),
    unexpectedAdvice: [...shown].filter((id) => !wanted.has(id)),
    focus: expected.focus === actual.focus ? null : { expected: expected.focus, actual: actual.focus },
    variables,
  }
}

export function hasDifferences(d: ScenarioDifferences): boolean {
  return d.missingAdvice.length > 0 || d.unexpectedAdvice.length > 0 || d.focus !== null || d.variables.length > 0
}
