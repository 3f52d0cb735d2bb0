import { defineIsland } from '../shared/define-island.ts'
import { parseRuleTreeProps } from './props.ts'
import { RuleTree } from './rule-tree.tsx'

export const ruleTreeIsland = defineIsland(RuleTree, parseRuleTreeProps)
