// How a decision record keeps its outcome on disk: positional arrays grouped by kind, so that a record of the demo
// set's two advice items is about 40 bytes of JSON text instead of the 190 bytes a jsonb of named fields takes (most
// of a record's size, and records are kept by the million). Readers never see this form: the column decodes it.
import { customType } from 'drizzle-orm/pg-core'

/** One advice item of a recorded answer: what was given, and the conditions that held on the way to it. */
export interface RecordedItem {
  nodeId: string
  group: 'advice' | 'assumptions' | 'examples'
  /** Only when Headline_Custom replaced the version's headline; otherwise the version's node says it. */
  customHeadline?: string
  /** Condition node ids from the rule root to the item (and through the Rule Call that reached it), in order. */
  path: string[]
}

export interface RecordedError { nodeId: string; code: string; message: string; variable?: string }

export interface RecordedOutcome {
  items: RecordedItem[]
  errors: RecordedError[]
  /** The question asked next, when the run stopped at one. */
  question?: { nodeId: string; variable: string; path: string[] }
}

type StoredItem = [nodeId: string, path: string[], customHeadline?: string]
type StoredError = [nodeId: string, code: string, message: string, variable?: string]
/** a: advice, s: assumptions, x: examples (each in the order given), e: errors, q: the question asked next. */
interface StoredOutcome { a?: StoredItem[]; s?: StoredItem[]; x?: StoredItem[]; e?: StoredError[]; q?: [nodeId: string, variable: string, path: string[]] }

const GROUP_KEYS = { advice: 'a', assumptions: 's', examples: 'x' } as const

export function encodeOutcome(outcome: RecordedOutcome): string {
  const stored: StoredOutcome = {}
  for (const item of outcome.items) {
    const list = (stored[GROUP_KEYS[item.group]] ??= [])
    list.push(item.customHeadline === undefined ? [item.nodeId, item.path] : [item.nodeId, item.path, item.customHeadline])
  }
  if (outcome.errors.length > 0) stored.e = outcome.errors.map((e) => e.variable === undefined ? [e.nodeId, e.code, e.message] : [e.nodeId, e.code, e.message, e.variable])
  if (outcome.question) stored.q = [outcome.question.nodeId, outcome.question.variable, outcome.question.path]
  return JSON.stringify(stored)
}

/** Items come back in the order a run gives them: advice, then assumptions, then examples. */
export function decodeOutcome(stored: StoredOutcome): RecordedOutcome {
  const items: RecordedItem[] = []
  for (const group of ['advice', 'assumptions', 'examples'] as const) {
    for (const [nodeId, path, customHeadline] of stored[GROUP_KEYS[group]] ?? []) {
      items.push({ nodeId, group, ...(customHeadline !== undefined ? { customHeadline } : {}), path })
    }
  }
  const errors = (stored.e ?? []).map(([nodeId, code, message, variable]) => ({ nodeId, code, message, ...(variable !== undefined ? { variable } : {}) }))
  return { items, errors, ...(stored.q ? { question: { nodeId: stored.q[0], variable: stored.q[1], path: stored.q[2] } } : {}) }
}

/** The outcome column: JSON text (json, not jsonb: kept as written, with no per-key overhead), decoded on read. */
export const recordedOutcomeColumn = customType<{ data: RecordedOutcome; driverData: string | StoredOutcome }>({
  dataType: () => 'json',
  toDriver: (outcome) => encodeOutcome(outcome),
  fromDriver: (value) => decodeOutcome(typeof value === 'string' ? JSON.parse(value) as StoredOutcome : value),
})
