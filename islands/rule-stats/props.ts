import { InvalidPropsError } from '../shared/define-island.ts'
import { isRecord } from '../shared/guards.ts'

/** The rule header's figures (statsOfRule in src/services/authoring/rules.ts). */
export interface RuleStatsFigures { nodes: number; depth: number; errors: number; warnings: number; unreachable: number }

export interface RuleStatsProps { ruleId: number; stats: RuleStatsFigures }

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0

/** The figures in an answer of /api/rule/stats or in the props; null when one is missing. */
export function figuresOf(raw: unknown): RuleStatsFigures | null {
  if (!isRecord(raw)) return null
  const { nodes, depth, errors, warnings, unreachable } = raw
  if (!isCount(nodes) || !isCount(depth) || !isCount(errors) || !isCount(warnings) || !isCount(unreachable)) return null
  return { nodes, depth, errors, warnings, unreachable }
}

export function parseRuleStatsProps(raw: unknown): RuleStatsProps {
  const stats = isRecord(raw) ? figuresOf(raw.stats) : null
  if (!isRecord(raw) || typeof raw.ruleId !== 'number' || !stats) throw new InvalidPropsError('rule-stats needs a ruleId and the stats (nodes, depth, errors, warnings, unreachable)')
  return { ruleId: raw.ruleId, stats }
}
