import { defineIsland } from '../shared/define-island.ts'
import { parseRuleDebugProps } from './props.ts'
import { RuleDebug } from './rule-debug.tsx'

export const ruleDebugIsland = defineIsland(RuleDebug, parseRuleDebugProps)
