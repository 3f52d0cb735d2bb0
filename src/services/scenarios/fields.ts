// A scenario's fields checked against the set it tests: answers must be for variables the set has and fit their data
// type, expected advice must be advice nodes, the expected focus a question (or 'complete'), expected variables
// variables or formulas. Each refusal names its field (inputs.Age, expected.advice …). The run machinery uses
// inputProblem too: an answer that fitted when saved may no longer fit the set being run.
import { coerceInput, type CompiledAdviceSet } from '../../engine/index.ts'
import { ValidationError } from '../errors.ts'
import { checkSentFields, optionalText, requireText } from '../validate.ts'
import type { PinnedApiResponse } from '../../db/schema/index.ts'
import { FOCUS_COMPLETE, type ExpectedOutcome } from './outcome.ts'

export const MAX_SCENARIO_ANSWERS = 500
export const MAX_PINNED_RESPONSES = 50
const MAX_JSON_CHARS = 200_000
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

export interface ScenarioInput {
  name?: unknown
  description?: unknown
  inputs?: unknown
  runAsOf?: unknown
  expected?: unknown
  pinnedResponses?: unknown
}

export interface ScenarioFieldValues {
  name: string
  description: string
  inputs: Record<string, unknown>
  runAsOf: string | null
  expected: ExpectedOutcome
  pinnedResponses: Record<string, PinnedApiResponse>
}

function isPlainObject(raw: unknown): raw is Record<string, unknown> {
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw)
}

/** JSON scalars and lists of them: what an answer or an expected value can be. */
function isRawValue(raw: unknown): boolean {
  if (raw === null || typeof raw === 'string' || typeof raw === 'boolean') return true
  if (typeof raw === 'number') return Number.isFinite(raw)
  return Array.isArray(raw) && raw.every((item) => item !== null && !Array.isArray(item) && isRawValue(item))
}

/** Why `raw` cannot be the answer for `name` in this set, or null when it can. */
export function inputProblem(compiled: CompiledAdviceSet, name: string, raw: unknown): string | null {
  const index = compiled.variableIndex.get(name)
  if (index === undefined) return `There is no variable {{${name}}} in this advice set.`
  const slot = compiled.variables[index]!
  if (slot.isSystem) return `{{${name}}} is a system variable: the run sets it, it cannot be answered.`
  if (slot.isConstant) return `{{${name}}} is a constant: it cannot be answered.`
  if (!isRawValue(raw)) return `The answer for {{${name}}} must be text, a number, true/false or a list of those.`
  if (slot.dataType === undefined) return null
  const coerced = coerceInput(slot.dataType, raw, slot.options ? { options: slot.options } : undefined)
  return coerced.ok ? null : `The answer for {{${name}}} cannot be used: ${coerced.message}`
}

export function parseInputs(raw: unknown, compiled: CompiledAdviceSet): Record<string, unknown> {
  if (raw === undefined || raw === null) return {}
  if (!isPlainObject(raw)) throw new ValidationError('inputs', 'inputs: must be an object of answers by variable name.')
  const entries = Object.entries(raw)
  if (entries.length > MAX_SCENARIO_ANSWERS) throw new ValidationError('inputs', `inputs: at most ${MAX_SCENARIO_ANSWERS} answers.`)
  if (JSON.stringify(raw).length > MAX_JSON_CHARS) throw new ValidationError('inputs', 'inputs: the answers are too long.')
  const inputs: Record<string, unknown> = {}
  for (const [name, value] of entries) {
    const problem = inputProblem(compiled, name, value)
    if (problem) throw new ValidationError(`inputs.${name}`, `inputs.${name}: ${problem}`)
    if (value !== null && value !== '') inputs[name] = value
  }
  return inputs
}

/** YYYY-MM-DD naming a real day, or null for "as of the moment of the run". */
export function parseRunAsOf(raw: unknown): string | null {
  if (raw === undefined || raw === null || raw === '') return null
  const match = typeof raw === 'string' ? DATE.exec(raw.trim()) : null
  const day = match ? new Date(`${match[0]}T00:00:00Z`) : null
  if (!match || !day || Number.isNaN(day.getTime()) || day.getUTCDate() !== Number(match[3])) {
    throw new ValidationError('runAsOf', 'runAsOf: must be a date written YYYY-MM-DD.')
  }
  return match[0]
}

/** The moment a run as of `runAsOf` happens: midnight UTC of that day. */
export function runMomentOf(runAsOf: string): Date {
  return new Date(`${runAsOf}T00:00:00Z`)
}

function nodeIdOf(raw: unknown): string | null {
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) return String(raw)
  return typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : null
}

export function parseExpected(raw: unknown, compiled: CompiledAdviceSet): ExpectedOutcome {
  if (!isPlainObject(raw)) throw new ValidationError('expected', 'expected: must be an object with advice, focus and variables.')
  const advice = raw.advice ?? []
  if (!Array.isArray(advice)) throw new ValidationError('expected.advice', 'expected.advice: must be a list of advice node ids.')
  const adviceIds: string[] = []
  for (const item of advice) {
    const id = nodeIdOf(item)
    if (id === null || compiled.nodeById.get(id)?.type !== 'advice') {
      throw new ValidationError('expected.advice', `expected.advice: ${JSON.stringify(item)} is not an advice node of this advice set.`)
    }
    if (!adviceIds.includes(id)) adviceIds.push(id)
  }
  const focus = raw.focus === undefined || raw.focus === null || raw.focus === '' ? FOCUS_COMPLETE : nodeIdOf(raw.focus)
  if (focus !== FOCUS_COMPLETE && (focus === null || compiled.nodeById.get(focus)?.type !== 'inputRequest')) {
    throw new ValidationError('expected.focus', `expected.focus: must be '${FOCUS_COMPLETE}' or the node id of a question of this advice set.`)
  }
  const variables = raw.variables ?? {}
  if (!isPlainObject(variables)) throw new ValidationError('expected.variables', 'expected.variables: must be an object of values by variable name.')
  for (const [name, value] of Object.entries(variables)) {
    if (!compiled.variableIndex.has(name) && compiled.formulas[compiled.formulaIndex.get(name) ?? -1]?.entity === undefined) {
      throw new ValidationError(`expected.variables.${name}`, `expected.variables.${name}: there is no variable {{${name}}} or formula [[${name}]] in this advice set.`)
    }
    if (!isRawValue(value)) throw new ValidationError(`expected.variables.${name}`, `expected.variables.${name}: must be text, a number, true/false, a list of those, or null.`)
  }
  if (JSON.stringify(variables).length > MAX_JSON_CHARS) throw new ValidationError('expected.variables', 'expected.variables: the values are too long.')
  return { advice: adviceIds, focus: focus!, variables: { ...variables } }
}

/** The external APIs (ids as text) the set's API Call nodes name. */
export function calledApiIds(compiled: CompiledAdviceSet): Set<string> {
  const ids = new Set<string>()
  for (const node of compiled.nodeById.values()) if (node.type === 'apiCall' && node.apiId !== '') ids.add(node.apiId)
  return ids
}

/**
 * Recorded answers by API id: `{ "12": { "status": 200, "body": { … } } }` (status 200 when left out; body any JSON
 * value). Only APIs the set's API Call nodes call can be pinned.
 */
export function parsePinnedResponses(raw: unknown, compiled: CompiledAdviceSet): Record<string, PinnedApiResponse> {
  if (raw === undefined || raw === null) return {}
  if (!isPlainObject(raw)) throw new ValidationError('pinnedResponses', 'pinnedResponses: must be an object of recorded answers by external API id.')
  const entries = Object.entries(raw)
  if (entries.length > MAX_PINNED_RESPONSES) throw new ValidationError('pinnedResponses', `pinnedResponses: at most ${MAX_PINNED_RESPONSES} recorded answers.`)
  const called = calledApiIds(compiled)
  const pinned: Record<string, PinnedApiResponse> = {}
  for (const [apiId, pin] of entries) {
    const field = `pinnedResponses.${apiId}`
    if (!called.has(apiId)) throw new ValidationError(field, `${field}: no API Call node of this advice set calls external API ${apiId}.`)
    if (!isPlainObject(pin) || !('body' in pin)) throw new ValidationError(field, `${field}: must be an object with status and body (the JSON answer).`)
    const status = pin.status ?? 200
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) {
      throw new ValidationError(`${field}.status`, `${field}.status: must be an HTTP status from 100 to 599.`)
    }
    if (JSON.stringify(pin.body ?? null).length > MAX_JSON_CHARS) throw new ValidationError(`${field}.body`, `${field}.body: the answer is too long.`)
    pinned[apiId] = { status, body: pin.body ?? null }
  }
  return pinned
}

/**
 * The fields `input` sends, checked against the set as `compiled` has it; fields it leaves out are left out (so a
 * change of name never trips over an expected outcome the set has since outgrown).
 */
export function parseScenarioChanges(input: ScenarioInput, compiled: CompiledAdviceSet): Promise<Partial<ScenarioFieldValues>> {
  // All fields that are wrong are told together.
  return checkSentFields<ScenarioFieldValues>(input, {
    name: () => requireText('name', input.name, 'Name', 200),
    description: () => optionalText('description', input.description, 'Description', 5000, 'multiline'),
    inputs: () => parseInputs(input.inputs, compiled),
    runAsOf: () => parseRunAsOf(input.runAsOf),
    expected: () => parseExpected(input.expected, compiled),
    pinnedResponses: () => parsePinnedResponses(input.pinnedResponses, compiled),
  })
}
