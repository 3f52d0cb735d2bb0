import { isRecord } from '../shared/guards.ts'

/** Where answers go: the Advice API with the partner's key, or the debugger's run of the working draft (signed in). */
export type AdviceSource = { kind: 'key'; key: string } | { kind: 'draft'; csrfToken: string }

export interface InterviewProps {
  adviceSetId: number
  source: AdviceSource
  /** Origins the page may post its height to; empty: its own origin (the studio's preview). */
  parentOrigins: string[]
}

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
  return { adviceSetId, source: parseSource(raw.source), parentOrigins }
}
