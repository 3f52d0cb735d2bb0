// The one run behind everything the branch tools say about answers (generation, compare, coverage): evaluate() as the
// debugger (services/authoring/rules.ts tracedRun) and the Advice API (services/delivery/advice-api.ts) call it, in
// the "run" context, so a branch's outcome — advice, focus and errors — is what those show for its answers. Two
// options differ, neither changing the outcome:
// - The trace: a search watches the few nodes of one path.
// - Rendering, which costs most of a run in sets with many advice items, is left out when it cannot add anything to
//   the outcome. What it adds is an error for a text's tag that has no value; a set none of whose headlines, texts
//   and questions has a tag, and that never sets Headline_Custom (whose value is rendered as a text), has no such
//   tag. Any other set is rendered, as the debugger renders it.
import { RESERVED_VARIABLES } from '../entity-types.ts'
import type { CompiledAdviceSet } from '../tree/compiled.ts'
import { evaluate } from '../tree/evaluate.ts'
import type { ApiPort } from '../tree/options.ts'
import type { EngineResult } from '../tree/result.ts'

export interface AnswersRunOptions {
  now?: Date
  /** Answers for API calls; the caller's choice (branch tools answer "no value" unless given recorded answers). */
  apiPort: ApiPort
  /** Trace only these nodes (every node when absent). */
  watched?: ReadonlySet<string>
}

export function answersRun(compiled: CompiledAdviceSet, inputs: Record<string, unknown>, options: AnswersRunOptions): EngineResult {
  return evaluate(compiled, inputs, {
    render: renderingCounts(compiled),
    trace: 'visits',
    apiPort: options.apiPort,
    ...(options.watched ? { traceOnly: options.watched } : {}),
    ...(options.now ? { now: options.now } : {}),
  })
}

/** What the branch tools answer for an API call when no recorded answer is given: no value (the call's rule stops). */
export const NO_API_VALUE: ApiPort = () => null

const TAG = /\{\{|\[\[/
const rendering = new WeakMap<CompiledAdviceSet, boolean>()

/** Whether rendering a run of this set can report an error (see above); worked out once per compiled set. */
export function renderingCounts(compiled: CompiledAdviceSet): boolean {
  let counts = rendering.get(compiled)
  if (counts === undefined) {
    counts = false
    for (const node of compiled.nodeById.values()) {
      const { headline, text, question, variable, expression } = node.model
      const setsHeadline = node.type === 'variableAssignment' && (expression ?? '').includes(RESERVED_VARIABLES.headlineCustom)
      if (setsHeadline || (node.type === 'apiCall' && variable === RESERVED_VARIABLES.headlineCustom)
        || [headline, text, question].some((body) => body !== undefined && TAG.test(body))) {
        counts = true
        break
      }
    }
    rendering.set(compiled, counts)
  }
  return counts
}
