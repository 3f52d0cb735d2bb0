import type { AdviceSetModel } from '../model.ts'
import { compileAdviceSet } from '../tree/compile.ts'
import type { CompiledAdviceSet } from '../tree/compiled.ts'
import { checkFormulaCycles } from './formula-cycles.ts'
import { checkNames } from './names.ts'
import { checkReachability } from './reachability.ts'
import { checkReadBeforeSet } from './read-before-set.ts'
import { checkRuleCalls } from './rule-calls.ts'
import { checkRulesRunningTwice } from './runs-twice.ts'
import type { CheckIssue } from './types.ts'

export type { CheckIssue, CheckSeverity } from './types.ts'

/**
 * Everything worth telling an author about the advice set without running it: parse errors and other compile
 * problems, unknown and unused names, reads before any set, unreachable nodes, rule-call and formula cycles, rules that
 * run on their own and are called too.
 * Pass `compiled` when it is at hand to skip compiling again.
 */
export function staticChecks(model: AdviceSetModel, compiled: CompiledAdviceSet = compileAdviceSet(model)): CheckIssue[] {
  const issues: CheckIssue[] = compiled.errors
    // Unknown formulas are reported per reading node by checkNames, with better context.
    .filter((error) => error.code !== 'UNKNOWN_FORMULA')
    .map((error) => ({
      nodeId: error.nodeId,
      ruleId: error.ruleId,
      code: error.code,
      severity: 'error' as const,
      message: error.message,
      ...(error.span ? { span: error.span } : {}),
    }))
  issues.push(
    ...checkNames(compiled),
    ...checkFormulaCycles(compiled),
    ...checkRuleCalls(compiled),
    ...checkRulesRunningTwice(compiled),
    ...checkReachability(compiled),
    ...checkReadBeforeSet(compiled),
  )
  return issues
}
