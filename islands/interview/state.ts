// One step of the interview, read from an engine result (the Advice API's `data`, or the debugger's `data.result`)
// rendered as html. Anything the page does not use is left out.
import { isDataType, type DataType } from '../../src/engine/types/data-types.ts'
import { isRecord, optionalString } from '../shared/guards.ts'

export interface Question {
  nodeId: string
  variable: string
  /** Sanitized html from the server. */
  html: string
  dataType: DataType
  options: string[]
  /** The server could not use the answer given (announced as the question's error). */
  error?: string
}

export interface Answered {
  nodeId: string
  variable: string
  html: string
  valueFormatted: string
}

export interface AdviceView {
  nodeId: string
  headline: string
  text: string
  /** Where the advice comes from (the node's sources, linked supplements among them), to open in a new tab. */
  sources: Array<{ name: string; uri: string }>
}

export interface InterviewState {
  focus: Question | null
  answered: Answered[]
  groups: Array<{ name: 'advice' | 'assumptions' | 'examples'; items: AdviceView[] }>
}

const GROUPS = ['advice', 'assumptions', 'examples'] as const

function html(value: unknown): string {
  // html is the only content type asked for; a plain string is all it can be.
  return typeof value === 'string' ? value : ''
}

function readFocus(raw: unknown): Question | null {
  if (!isRecord(raw) || typeof raw.variable !== 'string') return null
  const error = isRecord(raw.error) ? optionalString(raw.error.message) : undefined
  return {
    nodeId: String(raw.nodeId ?? ''),
    variable: raw.variable,
    html: html(raw.question),
    // The Advice API names it inputType; the debugger's engine result, dataType.
    dataType: isDataType(raw.inputType) ? raw.inputType : isDataType(raw.dataType) ? raw.dataType : 'freetext',
    options: Array.isArray(raw.options) ? raw.options.filter((o): o is string => typeof o === 'string') : [],
    ...(error === undefined ? {} : { error }),
  }
}

function readAnswered(raw: unknown): Answered[] {
  if (!Array.isArray(raw)) return []
  return raw.filter(isRecord).filter((a) => typeof a.variable === 'string').map((a) => ({
    nodeId: String(a.nodeId ?? ''),
    variable: a.variable as string,
    html: html(a.question),
    valueFormatted: optionalString(a.valueFormatted) ?? '',
  }))
}

/** Only web addresses and the studio's own paths are links: a source never becomes a script or a data: link. */
function readSources(raw: unknown): AdviceView['sources'] {
  if (!Array.isArray(raw)) return []
  return raw.filter(isRecord).flatMap((source) => {
    const name = optionalString(source.name)?.trim()
    const uri = optionalString(source.uri)?.trim()
    return name && uri && (/^https?:\/\//i.test(uri) || /^\/(?!\/)/.test(uri)) ? [{ name, uri }] : []
  })
}

function readItems(raw: unknown): AdviceView[] {
  if (!Array.isArray(raw)) return []
  return raw.filter(isRecord).map((item) => ({ nodeId: String(item.nodeId ?? ''), headline: html(item.headline), text: html(item.text), sources: readSources(item.sources) }))
}

export function readInterviewState(result: unknown): InterviewState {
  if (!isRecord(result)) throw new Error('The advice service answered with something that is not advice.')
  return {
    focus: readFocus(result.currentFocus),
    answered: readAnswered(result.inputRequests),
    groups: GROUPS.map((name) => ({ name, items: readItems(result[name]) })).filter((group) => group.items.length > 0),
  }
}
