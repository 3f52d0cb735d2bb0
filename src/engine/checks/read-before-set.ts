// READ_BEFORE_SET: a node reads a variable that, on some path from the start of the run to that node, no input
// request, assignment or API call has set (and that has no default). In an interview that path ends in
// "incomplete advice" unless the caller happens to pass the value directly.
import type { Expr } from '../expr/ast.ts'
import { RESERVED_VARIABLES } from '../entity-types.ts'
import type { CompiledAdviceSet, CompiledNode, CompiledRule } from '../tree/compiled.ts'
import { formulaVariableClosure, nodeReads } from './references.ts'
import type { CheckIssue } from './types.ts'

/** Definitely-set names; null after a list that always leaves the rule. */
type Defined = Set<string> | null

export function checkReadBeforeSet(compiled: CompiledAdviceSet): CheckIssue[] {
  const extraDefinitions = new Map<string, Expr[]>()
  for (const node of compiled.nodeById.values()) {
    if (node.type !== 'formula' || !node.ast || node.slot < 0) continue
    const name = compiled.formulas[node.slot]!.name
    extraDefinitions.set(name, [...(extraDefinitions.get(name) ?? []), node.ast])
  }
  const formulaVariables = formulaVariableClosure(compiled, extraDefinitions)
  const issues: CheckIssue[] = []
  const reported = new Set<string>()

  const always = new Set<string>([RESERVED_VARIABLES.context, RESERVED_VARIABLES.dataApiSources])
  for (const slot of compiled.variables) {
    if (slot.defaultValue !== undefined || slot.isConstant) always.add(slot.name)
  }

  const checkReads = (node: CompiledNode, defined: Set<string>): void => {
    const reads = nodeReads(compiled, node)
    const variables = new Set(reads.variables)
    for (const formula of reads.formulas) for (const name of formulaVariables.get(formula) ?? []) variables.add(name)
    for (const name of variables) {
      if (always.has(name) || defined.has(name)) continue
      const key = `${node.id}\u0000${name}`
      if (reported.has(key)) continue
      reported.add(key)
      issues.push({
        nodeId: node.id,
        ruleId: node.ruleId,
        code: 'READ_BEFORE_SET',
        severity: 'warning',
        message: `{{${name}}} is read here, but on some path no question, assignment or API call has set it yet.`,
      })
    }
  }

  const calling = new Set<string>()

  /** Runs a rule's nodes; exits end only this rule, so the result meets the fall-through and every exit. */
  const walkRule = (rule: CompiledRule, defined: Set<string>): Set<string> => {
    const exits: Set<string>[] = []
    const after = walkList(rule.nodes, defined, exits)
    const outcomes = after ? [after, ...exits] : exits
    if (outcomes.length === 0) return defined
    return intersect(outcomes)
  }

  const walkList = (nodes: CompiledNode[], defined: Set<string>, exits: Set<string>[]): Defined => {
    let current: Set<string> = defined
    for (const node of nodes) {
      const next = walkNode(node, current, exits)
      if (next === null) return null
      current = next
    }
    return current
  }

  const walkNode = (node: CompiledNode, defined: Set<string>, exits: Set<string>[]): Defined => {
    if (node.error) return defined
    checkReads(node, defined)
    switch (node.type) {
      case 'condition': {
        // Children run only sometimes: what they set is not definite afterwards, but exits inside still count.
        walkList(node.children, new Set(defined), exits)
        return defined
      }
      case 'ruleExit':
        exits.push(defined)
        return null
      case 'inputRequest':
      case 'apiCall':
      case 'variableAssignment': {
        const next = new Set(defined)
        if (node.slot >= 0) next.add(compiled.variables[node.slot]!.name)
        return walkList(node.children, next, exits)
      }
      case 'ruleCall': {
        let next = defined
        const called = node.called
        if (called && !calling.has(called.id)) {
          calling.add(called.id)
          next = walkRule(called, new Set(defined))
          calling.delete(called.id)
        }
        return walkList(node.children, next, exits)
      }
      default:
        return walkList(node.children, defined, exits)
    }
  }

  let defined = new Set<string>()
  for (const rule of compiled.rules) {
    calling.add(rule.id)
    defined = walkRule(rule, defined)
    calling.delete(rule.id)
  }
  return issues
}

function intersect(sets: Set<string>[]): Set<string> {
  const [first, ...rest] = sets
  const out = new Set<string>()
  for (const name of first!) if (rest.every((set) => set.has(name))) out.add(name)
  return out
}
