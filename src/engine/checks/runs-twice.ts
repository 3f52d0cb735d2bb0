// RULE_RUNS_TWICE: a rule that runs on its own and is also called by a rule the run reaches, so it runs twice in one
// run (its advice would appear twice but for the runner's guard, and its assignments do happen twice). Reported once
// per such rule, at the first call to it, naming every rule that calls it; `aboutRuleId` is the called rule, whose
// page offers the fix: mark it "runs only when called".
import type { CompiledAdviceSet, CompiledNode, CompiledRule } from '../tree/compiled.ts'
import type { CheckIssue } from './types.ts'

/** Call nodes of the rules a run reaches: the set's own run and, transitively, what it calls. */
function reachedCalls(compiled: CompiledAdviceSet): CompiledNode[] {
  const calls: CompiledNode[] = []
  const reached = new Set<string>()
  const visitRule = (rule: CompiledRule): void => {
    if (reached.has(rule.id)) return
    reached.add(rule.id)
    visitNodes(rule.nodes)
  }
  const visitNodes = (nodes: readonly CompiledNode[]): void => {
    for (const node of nodes) {
      if (node.called !== null) {
        calls.push(node)
        visitRule(node.called)
      }
      visitNodes(node.children)
    }
  }
  compiled.rules.forEach(visitRule)
  return calls
}

/** "A", "A and B", "A, B and C". */
function listOf(names: string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

export function checkRulesRunningTwice(compiled: CompiledAdviceSet): CheckIssue[] {
  const ownRun = new Set(compiled.rules.map((rule) => rule.id))
  const callsTo = new Map<string, CompiledNode[]>()
  for (const call of reachedCalls(compiled)) {
    const called = call.called!
    // A rule calling itself is a cycle (RULE_CALL_CYCLE), not a second run.
    if (!ownRun.has(called.id) || call.ruleId === called.id) continue
    const list = callsTo.get(called.id)
    if (list) list.push(call)
    else callsTo.set(called.id, [call])
  }
  const issues: CheckIssue[] = []
  for (const [ruleId, calls] of callsTo) {
    const name = compiled.ruleById.get(ruleId)!.name
    const callers = [...new Set(calls.map((call) => compiled.ruleById.get(call.ruleId)?.name ?? call.ruleId))]
    issues.push({
      nodeId: calls[0]!.id,
      ruleId: calls[0]!.ruleId,
      aboutRuleId: ruleId,
      code: 'RULE_RUNS_TWICE',
      severity: 'warning',
      message: `${name} runs on its own and is also called by ${listOf(callers)}: its advice can appear twice. Mark it 'runs only when called'.`,
    })
  }
  return issues
}
