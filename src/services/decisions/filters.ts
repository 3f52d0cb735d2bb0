// The decisions list's filters and its keyset cursor, from what a page's form or an API query sends: every value is
// checked, and a bad one is a ValidationError naming its field (never an empty list that hides the mistake).
import type { DecisionFilter } from '../../db/queries/decisions.ts'
import { ValidationError } from '../errors.ts'
import { madeAtOf } from './build.ts'

export const DECISION_STATUSES = ['complete', 'question', 'pending'] as const

/** The filters as sent: text from a query string (a form leaves unused ones empty). */
export interface DecisionQuery {
  from?: string; to?: string; key?: string; version?: string; advice?: string; status?: string; errors?: string; before?: string
}

export type ParsedDecisionQuery = Omit<DecisionFilter, 'adviceSetId'>

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/
const DAY_MS = 24 * 60 * 60 * 1000

/** A day (YYYY-MM-DD, UTC) or a moment (ISO 8601 with its zone). `endOfDay`: a day given for `to` includes that whole day. */
function parseMoment(field: string, raw: string, endOfDay: boolean): Date {
  const moment = DATE_ONLY.test(raw) ? new Date(`${raw}T00:00:00Z`) : /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(raw) ? new Date(raw) : null
  // A day that does not exist (2026-02-30) would roll over into the next month: refused, not moved.
  const rolledOver = moment !== null && DATE_ONLY.test(raw) && !Number.isNaN(moment.getTime()) && moment.toISOString().slice(0, 10) !== raw
  if (moment === null || Number.isNaN(moment.getTime()) || rolledOver) throw new ValidationError(field, `${field === 'from' ? 'From' : 'To'} must be a date (YYYY-MM-DD) or a moment in ISO 8601, not “${raw.slice(0, 40)}”.`)
  return DATE_ONLY.test(raw) && endOfDay ? new Date(moment.getTime() + DAY_MS) : moment
}

function positiveInteger(field: string, raw: string, label: string): number {
  const n = Number(raw)
  if (!/^\d{1,10}$/.test(raw) || !Number.isSafeInteger(n) || n < 1) throw new ValidationError(field, `${label} must be a whole number of 1 or more.`)
  return n
}

/** The cursor of the next page: the last record's moment and id (`<received at ISO>_<id>`), opaque to clients. */
export function cursorOf(record: { receivedAt: Date; id: string }): string {
  return `${record.receivedAt.toISOString()}_${record.id}`
}

function parseCursor(raw: string): { receivedAt: Date; id: string } {
  const [at, id, ...rest] = raw.split('_')
  const receivedAt = new Date(at ?? '')
  if (rest.length > 0 || id === undefined || madeAtOf(id) === undefined || Number.isNaN(receivedAt.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(at ?? '')) {
    throw new ValidationError('before', 'This page link is not valid: start again from the newest records.')
  }
  return { receivedAt, id: id.toLowerCase() }
}

const given = (raw: string | undefined): raw is string => raw !== undefined && raw.trim() !== ''

export function parseDecisionQuery(q: DecisionQuery): ParsedDecisionQuery {
  const out: ParsedDecisionQuery = {}
  if (given(q.from)) out.from = parseMoment('from', q.from.trim(), false)
  if (given(q.to)) out.to = parseMoment('to', q.to.trim(), true)
  if (out.from && out.to && out.from >= out.to) throw new ValidationError('to', 'To must be after From.')
  if (given(q.key)) out.apiKeyId = positiveInteger('key', q.key.trim(), 'Key')
  if (given(q.version)) out.versionNumber = positiveInteger('version', q.version.trim(), 'Version')
  if (given(q.advice)) {
    const advice = q.advice.trim()
    if (advice.length > 64 || /[\u0000-\u001f]/.test(advice)) throw new ValidationError('advice', 'Advice given must name one advice item.')
    out.adviceNodeId = advice
  }
  if (given(q.status)) {
    const status = q.status.trim()
    if (!(DECISION_STATUSES as readonly string[]).includes(status)) throw new ValidationError('status', `Status must be one of ${DECISION_STATUSES.join(', ')}.`)
    out.status = status
  }
  if (given(q.errors)) {
    if (q.errors !== 'yes' && q.errors !== 'no') throw new ValidationError('errors', 'Errors must be yes or no.')
    out.hasErrors = q.errors === 'yes'
  }
  if (given(q.before)) out.before = parseCursor(q.before.trim())
  return out
}
