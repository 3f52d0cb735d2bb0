// Demo advice for a first start in embedded mode: one small advice set an author can open, run in the debugger and
// edit right away. Built through the services, so it is audited and indexed like anything an author makes.
import { ENTITY_TYPES, type NodeType } from '../../engine/entity-types.ts'
import { createAdviceSet } from './advice-sets.ts'
import type { Actor, Deps } from '../context.ts'
import { createEntity } from '../authoring/entities.ts'
import { createNode, type NodeInput } from '../authoring/rule-nodes.ts'
import { createRule } from '../authoring/rules.ts'
import { createScenario } from '../scenarios/scenarios.ts'
import { previewRun, runScenarios } from '../scenarios/runs.ts'

interface DemoNode extends NodeInput { type: NodeType; children?: DemoNode[] }

const VARIABLES = [
  { reservedName: 'Age', dataType: 'number', description: 'Age in whole years.' },
  { reservedName: 'Annual_Income', dataType: 'number', displayFormat: '$0,0', description: 'Gross yearly income.' },
  { reservedName: 'Savings', dataType: 'number', displayFormat: '$0,0', description: 'Retirement savings today.' },
  { reservedName: 'Has_Pension', dataType: 'boolean', description: 'Whether a workplace pension is in place.' },
]

const FORMULAS = [
  { reservedName: 'Savings_Target', expression: '{{Annual_Income}} * 10', displayFormat: '$0,0', description: 'Ten times income by retirement.' },
]

const READINESS: DemoNode[] = [
  { type: 'inputRequest', variable: 'Age', question: 'How old are you?' },
  { type: 'inputRequest', variable: 'Annual_Income', question: 'What is your annual income?' },
  { type: 'inputRequest', variable: 'Savings', question: 'How much have you saved for retirement?' },
  {
    type: 'condition', expression: '{{Savings}} >= [[Savings_Target]]', children: [
      { type: 'advice', headline: 'You are on track', text: 'Your savings of {{Savings}} meet the target of [[Savings_Target]].' },
    ],
  },
  {
    type: 'condition', expression: '{{Savings}} < [[Savings_Target]]', children: [
      { type: 'inputRequest', variable: 'Has_Pension', question: 'Do you have a workplace pension?' },
      {
        type: 'condition', expression: '{{Has_Pension}} == false', children: [
          { type: 'advice', headline: 'Join a workplace pension', text: 'At {{Age}}, a workplace pension is the quickest way to close the gap to [[Savings_Target]].' },
        ],
      },
      { type: 'advice', headline: 'Save a little more each month', text: 'You are short of the target of [[Savings_Target]]; raising contributions now compounds the most.', tags: ['assumption'] },
    ],
  },
]

/** One scenario per outcome the rule can give; each expects what it gives today, so all pass. */
const SCENARIOS = [
  { name: 'On track', description: 'Savings above ten times income: only the good news.', inputs: { Age: 52, Annual_Income: 60000, Savings: 650000 } },
  {
    name: 'Short, no pension', description: 'Below target without a workplace pension: join one and save more.',
    inputs: { Age: 34, Annual_Income: 48000, Savings: 20000, Has_Pension: false }, variables: ['Has_Pension'],
  },
  { name: 'Short, with a pension', description: 'Below target with a pension already: save more.', inputs: { Age: 45, Annual_Income: 70000, Savings: 150000, Has_Pension: true } },
  { name: 'Waits for the pension question', description: 'Below target and the pension question not answered yet.', inputs: { Age: 29, Annual_Income: 35000, Savings: 5000 } },
]

async function addNodes(deps: Deps, actor: Actor, ruleId: number, nodes: DemoNode[], parentId: number | null) {
  for (const { children, ...content } of nodes) {
    const node = await createNode(deps, actor, ruleId, { ...content, parentId })
    if (children) await addNodes(deps, actor, ruleId, children, node.id)
  }
}

/** The demo set, made and checked; its id. */
export async function seedDemoContent(deps: Deps, author: Actor): Promise<number> {
  const set = await createAdviceSet(deps, author, {
    name: 'Retirement readiness', description: 'Checks retirement savings against a target of ten times income and suggests next steps.', isStarter: true,
  })
  for (const variable of VARIABLES) await createEntity(deps, author, { ...variable, entityTypeId: ENTITY_TYPES.variable.id })
  for (const formula of FORMULAS) await createEntity(deps, author, { ...formula, entityTypeId: ENTITY_TYPES.formula.id, dataType: 'number' })
  const rule = await createRule(deps, author, { adviceSetId: set.id, name: 'Savings check' })
  await addNodes(deps, author, rule.id, READINESS, null)
  for (const { variables = [], ...scenario } of SCENARIOS) {
    const { expected } = await previewRun(deps, author, { adviceSetId: set.id, inputs: scenario.inputs, variables })
    await createScenario(deps, author, { ...scenario, adviceSetId: set.id, expected })
  }
  await runScenarios(deps, author, { adviceSetId: set.id, source: 'draft' })
  return set.id
}
