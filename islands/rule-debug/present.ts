// The result of /api/rule/debug (EngineResult as JSON, and the formulas' values beside it) as the debug page shows it: the same RunView the server
// builds from the live result (src/services/authoring/rule-debug-page.ts runView), so both render alike.
import type { BodyView, ItemView, RunView } from '../../src/services/authoring/rule-debug-page.ts'
import { isRecord } from '../shared/guards.ts'
import { reasonViews } from '../../src/services/authoring/reason-view.ts'
import { notGivenViews, type NotGivenLinks } from '../../src/services/authoring/not-given-view.ts'

type Json = Record<string, unknown>

const records = (value: unknown): Json[] => Array.isArray(value) ? value.filter(isRecord) : []
const str = (value: unknown): string => typeof value === 'string' ? value : ''

/** Rendered content: html for the html content types; attributed strings show their text. */
function body(value: unknown, contentType: string): BodyView {
  if (isRecord(value)) return { text: str(value.text) }
  return contentType === 'html' || contentType === 'htmlnolinks' ? { html: str(value) } : { text: str(value) }
}

function item(raw: Json, contentType: string): ItemView {
  return {
    nodeId: str(raw.nodeId), headline: body(raw.headline, contentType), text: body(raw.text, contentType),
    tags: Array.isArray(raw.tags) ? raw.tags.filter((t): t is string => typeof t === 'string') : [],
    reasons: reasonViews(raw.reasons),
  }
}

/** A result's variables, then the run's formulas (`formulas` beside the result), as the table lists them. */
function valueRows(variables: Json, formulas: Json): RunView['variables'] {
  const rows = (kind: 'variable' | 'formula', values: Json) => Object.entries(values).filter((entry): entry is [string, Json] => isRecord(entry[1]))
    .map(([name, v]) => ({ name, kind, value: JSON.stringify(v.value), valueFormatted: str(v.valueFormatted), isSystem: v.isSystem === true }))
  return [...rows('variable', variables), ...rows('formula', formulas)]
}

/** `notGiven` as /api/rule/debug sends it beside the result, with the page's links (rule-debug.tsx). */
export function presentResult(result: unknown, contentType: string, formulas: unknown, notGiven?: { entries: unknown; links: NotGivenLinks }): RunView {
  const raw: Json = isRecord(result) ? result : {}
  const focus = isRecord(raw.currentFocus) ? raw.currentFocus : null
  return {
    done: raw.done === true,
    advice: records(raw.advice).map((a) => item(a, contentType)),
    assumptions: records(raw.assumptions).map((a) => item(a, contentType)),
    examples: records(raw.examples).map((a) => item(a, contentType)),
    focus: focus ? {
      nodeId: str(focus.nodeId), variable: str(focus.variable), question: body(focus.question, contentType),
      error: isRecord(focus.error) ? str(focus.error.message) : null, reasons: reasonViews(focus.reasons),
    } : null,
    answered: records(raw.inputRequests).map((a) => ({
      nodeId: str(a.nodeId), variable: str(a.variable), question: body(a.question, contentType), valueFormatted: str(a.valueFormatted),
    })),
    variables: valueRows(isRecord(raw.variables) ? raw.variables : {}, isRecord(formulas) ? formulas : {}),
    errors: records(raw.errors).map((e) => ({ nodeId: str(e.nodeId), ruleId: str(e.ruleId), code: str(e.code), message: str(e.message) })),
    notGiven: notGiven ? notGivenViews(notGiven.entries, notGiven.links) : [],
  }
}
