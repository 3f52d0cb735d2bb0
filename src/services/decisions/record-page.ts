// What the decision page adds to the record itself: the answer as the partner got it (rendered again from the record
// on its version: the run is reproducible, see replay.ts), the path drawn on the version's rule trees as the debugger
// draws a trace — from the record's own path, not from a new run — and, when asked, a run on the version or the draft.
import { compileAdviceSet, type ContentType } from '../../engine/index.ts'
import type { DecisionRecordRow } from '../../db/queries/decisions.ts'
import { apiKeyOwnerOf } from '../../db/queries/decisions.ts'
import type { AdviceSetRow } from '../../db/queries/advice-sets.ts'
import type { TraceEntry } from '../../engine/tree/result.ts'
import { paintedTrees, runView, type DebugNodeView, type DebugTreeView, type RunView } from '../authoring/rule-debug-page.ts'
import type { Actor, Deps } from '../context.ts'
import { recordedVersionModel, replayDecision, rerun, type Replay, type ReplayTarget } from './replay.ts'

export interface RecordPageExtras {
  /** The answer rendered in the content type asked for. */
  answer: RunView
  /** Inputs the record did not keep (personal), so text that showed them is rendered without them. */
  withoutPersonal: string[]
  tree: DebugTreeView
  replay: Replay | null
}

/** The record's path as a trace: each condition on the way held, each item and the question were reached. */
function pathTrace(record: DecisionRecordRow): TraceEntry[] {
  const trace: TraceEntry[] = []
  const seen = new Set<string>()
  const visit = (nodeId: string, type: string, value: boolean | null) => {
    if (seen.has(nodeId)) return
    seen.add(nodeId)
    trace.push({ nodeId, type, value, durationNs: 0 })
  }
  const steps = [...record.outcome.items.map((item) => ({ path: item.path, nodeId: item.nodeId, type: 'advice' })),
    ...(record.outcome.question ? [{ path: record.outcome.question.path, nodeId: record.outcome.question.nodeId, type: 'inputRequest' }] : [])]
  for (const step of steps) {
    for (const condition of step.path) visit(condition, 'condition', true)
    visit(step.nodeId, step.type, null)
  }
  return trace
}

export async function recordPageExtras(deps: Deps, actor: Actor, set: AdviceSetRow, record: DecisionRecordRow, run: ReplayTarget | undefined): Promise<RecordPageExtras> {
  const model = await recordedVersionModel(deps, record)
  const compiled = compileAdviceSet(model)
  const again = rerun(compiled, record, await apiKeyOwnerOf(deps.db, record.apiKeyId))
  const errors = record.outcome.errors.map((e) => ({ ...e, ruleId: compiled.nodeById.get(e.nodeId)?.ruleId ?? '' }))
  const tree = paintedTrees(
    { set, rule: null, rules: [], model, compiled, apiNames: new Map() },
    { result: { trace: pathTrace(record), currentFocus: record.outcome.question, errors }, unreachable: [] },
  )
  // A record keeps which conditions held, not how long they took: no times on its path.
  const untimed = (node: DebugNodeView): void => { node.time = null; node.children.forEach(untimed) }
  for (const rule of tree.rules) rule.nodes.forEach(untimed)
  return {
    answer: runView(again.result, record.contentType as ContentType),
    withoutPersonal: again.withoutPersonal,
    tree,
    replay: run ? await replayDecision(deps, actor, record, run) : null,
  }
}
