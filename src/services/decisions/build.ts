// One answer of the Advice API as a decision record: who asked (key, environment), under which version, with which
// inputs (as the engine used them, personal ones only as keyed hashes), and what was answered and why (the conditions
// on the way to each advice item and to the question asked next).
import { createHmac } from 'node:crypto'
import { EngineError, type CompiledAdviceSet, type EngineResult } from '../../engine/index.ts'
import { coerceAnswer } from '../../engine/tree/inputs.ts'
import type { NewDecisionRecord } from '../../db/queries/decisions.ts'
import type { RecordedItem, RecordedOutcome } from '../../db/schema/index.ts'
import type { AuthenticatedKey } from '../delivery/api-keys.ts'
import type { ServedVersion } from '../publishing/versions.ts'
import { canonicalJson, canonicalValue, type CanonicalValue } from './canonical.ts'
import { decisionIdAt } from './decision-id.ts'
import { conditionPath } from './paths.ts'

export type DecisionEndpoint = 'api' | 'legacy' | 'embed'

/** What inputs hold in place of a personal value. */
export const PERSONAL_PLACEHOLDER = Object.freeze({ personal: true })

/**
 * The keyed hash a personal value is kept as: of the variable's name and the value's canonical JSON, so the same value
 * of another variable does not match, and a value given as 42 or "42" (coerced alike) does.
 */
export function personalHash(secret: string, name: string, value: unknown): string {
  return createHmac('sha256', secret).update(`${name}\u0000${canonicalJson(value)}`).digest('base64url')
}

export interface DecisionRun {
  key: AuthenticatedKey
  version: ServedVersion
  endpoint: DecisionEndpoint
  contentType: string
  inputs: Record<string, unknown>
  compiled: CompiledAdviceSet
  result: EngineResult
  engineMicros: number
  receivedAt: Date
}

export function buildDecisionRecord(run: DecisionRun, personal: ReadonlySet<string>, secret: string): NewDecisionRecord {
  const { compiled, result } = run
  const inputs: Record<string, CanonicalValue | typeof PERSONAL_PLACEHOLDER> = {}
  const personalHashes: string[] = []
  for (const name of Object.keys(run.inputs).sort()) {
    const slot = compiled.variableIndex.get(name)
    // Names the set does not use were ignored by the run, so they are not part of what it used.
    if (slot === undefined) continue
    const coerced = coerceAnswer(compiled.variables[slot]!, run.inputs)
    if (coerced === undefined || coerced instanceof EngineError) continue
    const value = canonicalValue(coerced)
    if (personal.has(name)) {
      inputs[name] = PERSONAL_PLACEHOLDER
      personalHashes.push(personalHash(secret, name, value))
    } else {
      inputs[name] = value
    }
  }
  const { outcome, status, adviceNodeIds } = recordedOutcome(compiled, result)
  return {
    id: decisionIdAt(run.receivedAt.getTime()),
    receivedAt: run.receivedAt,
    ownerId: run.version.ownerId,
    adviceSetId: run.version.adviceSetId,
    versionId: run.version.id,
    versionNumber: run.version.number,
    apiKeyId: run.key.id,
    environment: run.key.environment,
    endpoint: run.endpoint,
    contentType: run.contentType,
    inputs,
    personalHashes,
    status,
    adviceNodeIds,
    hasErrors: outcome.errors.length > 0,
    outcome,
    engineMicros: Math.round(run.engineMicros),
  }
}

/** A run's status as a record keeps it: the question asked next, API answers still to come, or complete. */
export function statusOf(result: EngineResult): string {
  return result.currentFocus ? 'question' : result.pendingApiCalls.length > 0 ? 'pending' : 'complete'
}

/** What a run answered, as a record keeps it: the items with their paths, errors, the question asked next. */
export function recordedOutcome(compiled: CompiledAdviceSet, result: EngineResult): { outcome: RecordedOutcome; status: string; adviceNodeIds: string[] } {
  const items: RecordedItem[] = []
  addItems(items, compiled, 'advice', result.advice)
  addItems(items, compiled, 'assumptions', result.assumptions)
  addItems(items, compiled, 'examples', result.examples)
  const focus = result.currentFocus
  const outcome: RecordedOutcome = {
    items,
    errors: result.errors.map((e) => ({ nodeId: e.nodeId, code: e.code, message: e.message, ...(e.variable ? { variable: e.variable } : {}) })),
    ...(focus ? { question: { nodeId: focus.nodeId, variable: focus.variable, path: [...conditionPath(compiled, focus.nodeId)] } } : {}),
  }
  return { outcome, status: statusOf(result), adviceNodeIds: items.filter((item) => item.group === 'advice').map((item) => item.nodeId) }
}

/**
 * A group's items with their paths, onto `items`. At the top of the module, not a closure in recordedOutcome: `npm start`
 * runs the sources through tsx, which names every function it makes (`__name`, a defineProperty) each time it is made,
 * and this runs for every answer recorded.
 */
function addItems(items: RecordedItem[], compiled: CompiledAdviceSet, group: RecordedItem['group'], list: EngineResult['advice']): void {
  for (const item of list) {
    items.push({ nodeId: item.nodeId, group, ...(item.customHeadline !== undefined ? { customHeadline: item.customHeadline } : {}), path: [...conditionPath(compiled, item.nodeId)] })
  }
}

/** When a UUIDv7 was made (its first 48 bits), to find its record in the right partition; undefined if it is not one. */
export function madeAtOf(id: string): Date | undefined {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(id)) return undefined
  const madeAt = new Date(parseInt(id.slice(0, 8) + id.slice(9, 13), 16))
  // 48 bits of milliseconds reach to the year 10889, past what timestamps are written as (four-digit years): such an
  // id was never made here.
  return madeAt.getUTCFullYear() > 9999 ? undefined : madeAt
}
