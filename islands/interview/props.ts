// The interview's JSON props (InterviewProps, written by src/http/pages/embed.ts), checked before anything runs.
import type { AdviceSource, InterviewProps } from '../../src/services/delivery/embed.ts'
import { isRecord } from '../shared/guards.ts'

function parseSource(raw: unknown): AdviceSource {
  if (isRecord(raw) && raw.kind === 'key' && typeof raw.key === 'string' && raw.key !== '') return { kind: 'key', key: raw.key }
  if (isRecord(raw) && raw.kind === 'draft' && typeof raw.csrfToken === 'string') return { kind: 'draft', csrfToken: raw.csrfToken }
  throw new Error('interview: props.source must be { kind: "key", key } or { kind: "draft", csrfToken }')
}

export function parseInterviewProps(raw: unknown): InterviewProps {
  if (!isRecord(raw)) throw new Error('interview: props must be an object')
  const { adviceSetId, parentOrigins } = raw
  if (typeof adviceSetId !== 'number' || !Number.isInteger(adviceSetId) || adviceSetId < 1) {
    throw new Error('interview: props.adviceSetId must be a positive integer')
  }
  if (!Array.isArray(parentOrigins) || !parentOrigins.every((o) => typeof o === 'string')) {
    throw new Error('interview: props.parentOrigins must be a list of origins')
  }
  return { adviceSetId, source: parseSource(raw.source), parentOrigins, askUs: raw.askUs === true }
}
