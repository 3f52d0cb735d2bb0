import { defineIsland } from '../shared/define-island.ts'
import { parseRuleStatsProps } from './props.ts'
import { RuleStats } from './rule-stats.tsx'

export const ruleStatsIsland = defineIsland(RuleStats, parseRuleStatsProps)
