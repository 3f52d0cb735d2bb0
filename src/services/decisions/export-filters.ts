// The decision list's filters as a form or an API body gives them (from, to, key, version, advice, status, errors),
// read into the query's filter. Empty fields mean "any", as a submitted form leaves them. Dates are UTC days and
// `to` includes its whole day.
import type { DecisionFilter } from '../../db/queries/decisions.ts'
import { ValidationError } from '../errors.ts'
import { requireOneOf } from '../validate.ts'

export const DECISION_STATUSES = ['complete', 'question', 'pending'] as const
export const DECISION_ERROR_CHOICES = ['with', 'without'] as const

export interface DecisionFilterInput {
  from?: unknown; to?: unknown; key?: unknown; version?: unknown; advice?: unknown; status?: unknown; errors?: unknown
}

/** What the filter fields hold, without the set: a job keeps it as JSON (dates as ISO text). */
export type DecisionFilterFields = Omit<DecisionFilter, 'adviceSetId' | 'before'>

const DAY_MS = 24 * 60 * 60 * 1000

function given(raw: unknown): raw is string {
  return typeof raw === 'string' && raw.trim() !== ''
}

function utcDay(field: string, raw: string, label: string): Date {
  const day = raw.trim()
  const at = /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T00:00:00Z`) : new Date(Number.NaN)
  if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== day) throw new ValidationError(field, `${label} must be a date like 2026-11-26.`)
  return at
}

function wholeNumber(field: string, raw: string, label: string): number {
  const text = raw.trim()
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1) throw new ValidationError(field, `${label} must be a whole number from 1.`)
  return Number(text)
}

export function parseDecisionFilters(input: DecisionFilterInput): DecisionFilterFields {
  const filter: DecisionFilterFields = {}
  if (given(input.from)) filter.from = utcDay('from', input.from, 'From')
  if (given(input.to)) filter.to = new Date(utcDay('to', input.to, 'To').getTime() + DAY_MS)
  if (filter.from && filter.to && filter.from >= filter.to) throw new ValidationError('to', 'To must be on or after From.')
  if (given(input.key)) filter.apiKeyId = wholeNumber('key', input.key, 'API key')
  if (given(input.version)) filter.versionNumber = wholeNumber('version', input.version, 'Version')
  if (given(input.advice)) {
    const advice = input.advice.trim()
    if (advice.length > 64) throw new ValidationError('advice', 'Advice must be a node id of at most 64 characters.')
    filter.adviceNodeId = advice
  }
  if (given(input.status)) filter.status = requireOneOf('status', input.status, DECISION_STATUSES, 'Status')
  if (given(input.errors)) filter.hasErrors = requireOneOf('errors', input.errors, DECISION_ERROR_CHOICES, 'Errors') === 'with'
  return filter
}
