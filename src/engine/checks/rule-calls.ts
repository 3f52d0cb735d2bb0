// RULE_CALL_CYCLE: a rule call from which the calling rule can be reached again. Reported on every call node
// that lies on a cycle, so the author sees each place to cut it.
import type { CompiledAdviceSet, CompiledNode } from '../tree/compiled.ts'
import type { CheckIssue } from './types.ts'

export function checkRuleCalls(compiled: CompiledAdviceSet): CheckIssue[] {
  const callsOf = new Map<string, CompiledNode[]>()
  for (const node of compiled.nodeById.values()) {
    if (node.type !== 'ruleCall' || !node.called) continue
    const list = callsOf.get(node.ruleId)
    if (list) list.push(node)
    else callsOf.set(node.ruleId, [node])
  }
  const reaches = (from: string, target: string): string[] | undefined => {
    // Breadth-first so the reported circle is the shortest one.
    const previous = new Map<string, string>([[from, '']])
    const queue = [from]
    while (queue.length > 0) {
      const ruleId = queue.shift()!
      if (ruleId === target) {
        const path = [ruleId]
        for (let at = previous.get(ruleId)!; at !== ''; at = previous.get(at)!) path.unshift(at)
        return path
      }
      for (const call of callsOf.get(ruleId) ?? []) {
        const next = call.called!.id
        if (previous.has(next)) continue
        previous.set(next, ruleId)
        queue.push(next)
      }
    }
    return undefined
  }
  const issues: CheckIssue[] = []
  const nameOf = (id: string): string => `"${compiled.ruleById.get(id)?.name ?? id}"`
  for (const calls of callsOf.values()) {
    for (const node of calls) {
      const path = reaches(node.called!.id, node.ruleId)
      if (!path) continue
      issues.push({
        nodeId: node.id,
        ruleId: node.ruleId,
        code: 'RULE_CALL_CYCLE',
        severity: 'error',
        message: `Rule calls go round in a circle: ${[node.ruleId, ...path].map(nameOf).join(' → ')}.`,
      })
    }
  }
  return issues
}
