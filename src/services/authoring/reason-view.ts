// Reasons (engine explainer.ts) as the debug page shows them, beside each advice item and the focus. Pure and
// reading plain JSON, so the server's page and the rule-debug island (which gets the API's JSON) show them alike.

export interface ReasonReadView {
  /** As written in expressions: {{Name}} or [[Name]]. */
  name: string
  value: string
  /** Where the value came from, in words. */
  from: string
  /** The question, assignment or API Call that gave the value, to link to on the tree. */
  fromNodeId: string | null
}

export interface ReasonView {
  nodeId: string
  /** The condition as written, "Always", or the rule a Rule Call ran. */
  text: string
  kind: 'condition' | 'conditionAlways' | 'ruleCall'
  result: string
  reads: ReasonReadView[]
}

export type Json = Record<string, unknown>
export const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
export const str = (value: unknown): string => (typeof value === 'string' ? value : '')

function fromWords(from: Json): string {
  const node = str(from.nodeId)
  switch (from.kind) {
    case 'answer': return `answered at node ${node}`
    case 'input': return 'given with the inputs'
    case 'assignment': return `set by node ${node}: ${str(from.expression)}`
    case 'api': return `from the API ${str(from.apiId)} (node ${node})`
    case 'default': return 'its default'
    case 'constant': return 'a constant'
    case 'system': return 'set by the run'
    case 'formula': return `= ${str(from.expression)}`
    default: return 'no value'
  }
}

export function readView(raw: Json): ReasonReadView {
  const name = str(raw.name)
  const from = isRecord(raw.from) ? raw.from : {}
  const value = str(raw.valueFormatted) || (raw.value === null || raw.value === undefined ? '(no value)' : JSON.stringify(raw.value))
  return { name: raw.kind === 'formula' ? `[[${name}]]` : `{{${name}}}`, value, from: fromWords(from), fromNodeId: str(from.nodeId) || null }
}

export function reasonViews(raw: unknown): ReasonView[] {
  if (!Array.isArray(raw)) return []
  return raw.filter(isRecord).map((reason) => {
    const kind = reason.type === 'ruleCall' || reason.type === 'conditionAlways' ? reason.type : 'condition'
    const called = isRecord(reason.calledRule) ? str(reason.calledRule.name) : ''
    const text = kind === 'ruleCall' ? `Rule Call: ${called}` : kind === 'conditionAlways' ? 'Always' : str(reason.expression)
    return {
      nodeId: str(reason.nodeId), kind, text, result: JSON.stringify(reason.result ?? null),
      reads: Array.isArray(reason.reads) ? reason.reads.filter(isRecord).map(readView) : [],
    }
  })
}
