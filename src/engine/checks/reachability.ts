// UNREACHABLE: nodes that can never run — siblings after a list that always exits the rule, and nodes under a
// condition that can never be true (its own comparisons contradict each other, or contradict the conditions
// above it on variables nothing in the advice set changes).
import type { CompiledAdviceSet, CompiledNode } from '../tree/compiled.ts'
import { byVariable, conditionFacts, describeAtom, satisfiable } from './constraints.ts'
import type { Atom } from './constraints.ts'
import type { CheckIssue } from './types.ts'

/** Variables whose value cannot change during a run once known: never assigned, never filled by an API call. */
export function stableVariables(compiled: CompiledAdviceSet): Set<string> {
  const changed = new Set<string>()
  for (const node of compiled.nodeById.values()) {
    if ((node.type === 'variableAssignment' || node.type === 'apiCall') && node.slot >= 0) {
      changed.add(compiled.variables[node.slot]!.name)
    }
  }
  const stable = new Set<string>()
  for (const slot of compiled.variables) if (!changed.has(slot.name)) stable.add(slot.name)
  return stable
}

/**
 * The atoms a condition node contributes to a path on which it is true. With `stable`, only atoms on variables
 * that keep their value across the run (so they still hold further down the path); without, every variable
 * atom (valid within the one evaluation of the condition itself).
 */
export function usableAtoms(compiled: CompiledAdviceSet, node: CompiledNode, stable?: ReadonlySet<string>, negated = false): { atoms: Atom[]; alwaysFalse: boolean } {
  if (node.type !== 'condition' || !node.ast) return { atoms: [], alwaysFalse: false }
  const facts = conditionFacts(node.ast, negated)
  return {
    atoms: facts.atoms.filter((atom) => !compiled.bareFormulas.has(atom.name) && (!stable || stable.has(atom.name))),
    alwaysFalse: facts.alwaysFalse,
  }
}

/** A readable reason why the atoms cannot all hold, or undefined when they can. */
export function contradiction(atoms: readonly Atom[]): string | undefined {
  for (const [, group] of byVariable(atoms)) {
    if (!satisfiable(group)) return `${group.map(describeAtom).join(' and ')} cannot all hold`
  }
  return undefined
}

/** A comparison that asks a closed-set variable (select, radio) for a value that is not one of its options. */
export function notAnOption(compiled: CompiledAdviceSet, atoms: readonly Atom[]): string | undefined {
  for (const atom of atoms) {
    if (atom.op !== '==' || typeof atom.value !== 'string') continue
    const slot = compiled.variables[compiled.variableIndex.get(atom.name) ?? -1]
    if (!slot || (slot.dataType !== 'select' && slot.dataType !== 'radio') || !slot.options) continue
    if (!slot.options.includes(atom.value)) return `${describeAtom(atom)} is never true: it is not one of the options of {{${atom.name}}}`
  }
  return undefined
}

/** Whether running this list always ends the rule (a Rule Exit reached on every path through it). */
export function alwaysExits(nodes: readonly CompiledNode[]): boolean {
  return nodes.some((node) => node.type === 'ruleExit' || (node.type === 'conditionAlways' && alwaysExits(node.children)))
}

export function checkReachability(compiled: CompiledAdviceSet): CheckIssue[] {
  const stable = stableVariables(compiled)
  const issues: CheckIssue[] = []
  const walk = (nodes: CompiledNode[], path: Atom[]): void => {
    let exited = false
    for (const node of nodes) {
      if (exited) {
        issues.push({
          nodeId: node.id,
          ruleId: node.ruleId,
          code: 'UNREACHABLE',
          severity: 'warning',
          message: 'This node never runs: the rule always exits before it.',
        })
        continue
      }
      const ownFacts = usableAtoms(compiled, node)
      const own = ownFacts.alwaysFalse
        ? 'it is always false'
        : (contradiction(ownFacts.atoms) ?? notAnOption(compiled, ownFacts.atoms))
      const facts = usableAtoms(compiled, node, stable)
      const combined = own ?? (path.length > 0 && facts.atoms.length > 0 ? contradiction([...path, ...facts.atoms]) : undefined)
      if (combined !== undefined) {
        issues.push({
          nodeId: node.id,
          ruleId: node.ruleId,
          code: 'UNREACHABLE',
          severity: 'warning',
          message:
            own !== undefined
              ? `This condition can never be true (${own}), so the nodes under it never run.`
              : `This condition can never be true under the conditions above it (${combined}), so the nodes under it never run.`,
        })
      } else {
        walk(node.children, facts.atoms.length > 0 ? [...path, ...facts.atoms] : path)
      }
      if (node.type === 'ruleExit' || (node.type === 'conditionAlways' && alwaysExits(node.children))) exited = true
    }
  }
  for (const rule of compiled.ruleById.values()) walk(rule.nodes, [])
  return issues
}
