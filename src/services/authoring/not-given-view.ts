// "Advice not given" (engine why-not.ts) as the debug page shows it: per node, what stopped the run on each path to it
// and the answers nearest to the run's that give it. Pure and reading plain JSON, so the server's page and the
// rule-debug island (which gets /api/rule/debug's JSON) show it alike; links are made by the caller, which knows the
// page's address and form.
import { isRecord, readView, str, type Json, type ReasonReadView } from './reason-view.ts'

export interface BlockerView {
  /** The sentence that says what stopped the run. */
  text: string
  nodeId: string
  /** A condition's expression, and what it read. */
  expression: string | null
  reads: ReasonReadView[]
}

export interface NotGivenView {
  nodeId: string
  headline: string
  paths: Array<{ path: string[]; blocker: BlockerView }>
  /** Each answer to change, in words: {{Income}}: 30000 → 60000 (lists with commas). */
  changes: string[]
  /** The nearest answers as the form's texts, by variable; null when not worked out or none found. */
  answers: Record<string, string> | null
  /** The debug run with the nearest answers; null when there are none. */
  useHref: string | null
  /** The same run asking for this node's nearest answers, when they were not worked out (the run works out the first few). */
  askHref: string | null
  /** Why no answers give it. */
  unreachable: string | null
}

/** A value as the debug form writes it: lists one item per line. */
function formText(value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => formText(v)).join('\n')
  return value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value)
}

function shown(value: unknown, present: boolean, absent: string): string {
  return present ? formText(value).replace(/\n/g, ', ') : absent
}

function blockerView(raw: Json): BlockerView {
  const nodeId = str(raw.nodeId)
  const base = { nodeId, expression: null, reads: [] }
  switch (raw.kind) {
    case 'condition':
      return {
        text: `The condition at node ${nodeId} was ${JSON.stringify(raw.result ?? null)}:`, nodeId, expression: str(raw.expression),
        reads: Array.isArray(raw.reads) ? raw.reads.filter(isRecord).map(readView) : [],
      }
    case 'question': return { ...base, text: `The run stopped at the question for {{${str(raw.variable)}}} (node ${nodeId}) before it.` }
    case 'exit': return { ...base, text: `The Rule Exit at node ${nodeId} ended the rule before it.` }
    case 'error': return { ...base, text: `The rule stopped with an error before it: ${str(raw.message)}` }
    case 'pendingApi': return { ...base, text: `The run is waiting for the API ${str(raw.apiId)} (node ${nodeId}).` }
    default: return { ...base, text: `The run did not reach node ${nodeId}.` }
  }
}

/** How the page links a run: with other answers (form texts by variable), or asking for a node's nearest answers. */
export interface NotGivenLinks {
  run(answers: Record<string, string>): string
  /** Absent where every node's nearest answers were worked out. */
  ask?(nodeId: string): string
}

export function notGivenViews(raw: unknown, links: NotGivenLinks): NotGivenView[] {
  if (!Array.isArray(raw)) return []
  return raw.filter(isRecord).map((entry) => {
    const nearest = isRecord(entry.nearest) ? entry.nearest : null
    const changes = nearest && Array.isArray(nearest.changes) ? nearest.changes.filter(isRecord) : []
    const inputs = nearest && isRecord(nearest.inputs) ? nearest.inputs : null
    const answers = inputs ? Object.fromEntries(Object.entries(inputs).map(([name, value]) => [name, formText(value)])) : null
    return {
      nodeId: str(entry.nodeId),
      headline: str(entry.headline),
      paths: (Array.isArray(entry.paths) ? entry.paths.filter(isRecord) : []).map((p) => ({
        path: Array.isArray(p.path) ? p.path.map(str) : [], blocker: blockerView(isRecord(p.blocker) ? p.blocker : {}),
      })),
      changes: changes.map((c) => `{{${str(c.variable)}}}: ${shown(c.from, 'from' in c, '(no answer)')} → ${shown(c.to, 'to' in c, '(no answer)')}`),
      answers,
      useHref: answers ? links.run(answers) : null,
      askHref: links.ask && entry.nearest === undefined && entry.unreachable === undefined ? links.ask(str(entry.nodeId)) : null,
      unreachable: typeof entry.unreachable === 'string' ? entry.unreachable : null,
    }
  })
}

/** How many the debug page lists (a big set leaves thousands of advice nodes unreached by one run; the API has all). */
export const MAX_NOT_GIVEN_SHOWN = 50
