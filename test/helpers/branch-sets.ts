// Advice sets for the testing tools (generated branches, compare, summary), straight through the query layer.
import type { Db } from '../../src/db/client.ts'
import { findEntityByName, insertEntity } from '../../src/db/queries/entities.ts'
import { ENTITY_TYPES } from '../../src/engine/index.ts'
import { createAdviceSet } from './advice-sets.ts'
import { buildRule, createFormula, createVariable, type NodeSpec } from './rules.ts'

/** The dictionary the sets below use; names are unique per owner, so once per owner. */
export async function createBranchVariables(db: Db, ownerId: string) {
  const entry = (reservedName: string, dataType: string, extra: { validOptions?: string[]; expression?: string; description?: string } = {}) => insertEntity(db, {
    ownerId, adviceSetId: null, entityTypeId: extra.expression ? ENTITY_TYPES.formula.id : ENTITY_TYPES.variable.id, reservedName, dataType,
    validOptions: extra.validOptions ?? [], isClosedSet: Boolean(extra.validOptions), displayFormat: null, defaultValue: null,
    expression: extra.expression ?? null, isConstant: false, description: extra.description ?? '', createdBy: null,
  })
  await entry('Age', 'number', { description: 'Age in whole years' })
  await entry('Smoker', 'boolean')
  await entry('Region', 'select', { validOptions: ['North', 'South', 'East'] })
  await entry('Savings', 'number')
  await entry('Monthly_Cost', 'number', { expression: '{{Age}} * 10', description: 'What cover costs a month' })
}

/**
 * "Cover": questions, an age gate (under 18 stops the rule), cover by age and smoking, a regional note, and a
 * price advice using a formula. Returns the set and its nodes by name.
 */
export async function buildCoverSet(db: Db, ownerId: string, name = 'Cover') {
  const set = await createAdviceSet(db, { ownerId, name })
  const questions = await buildRule(db, set.id, 'Questions', [
    { type: 'inputRequest', variable: 'Age', question: 'How old are you?' },
    { type: 'inputRequest', variable: 'Smoker', question: 'Do you smoke?' },
    { type: 'inputRequest', variable: 'Region', question: 'Where do you live?' },
  ])
  const gate = await buildRule(db, set.id, 'Age gate', [
    { type: 'condition', expression: '{{Age}} < 18', children: [{ type: 'advice', headline: 'Too young for cover' }, { type: 'ruleExit' }] },
    { type: 'condition', expression: '{{Age}} >= 65', children: [{ type: 'advice', headline: 'Senior cover', text: 'Cover after 65 has a lower limit.' }] },
    { type: 'condition', expression: '{{Age}} >= 18 && {{Age}} < 65', children: [
      { type: 'condition', expression: '{{Smoker}}', children: [{ type: 'advice', headline: 'Smoker rate' }] },
      { type: 'condition', expression: '!{{Smoker}}', children: [{ type: 'advice', headline: 'Standard rate' }] },
    ] },
  ])
  const region = await buildRule(db, set.id, 'Region', [
    { type: 'condition', expression: '{{Region}} == "North" || {{Region}} == "East"', children: [{ type: 'advice', headline: 'Regional office nearby' }] },
    { type: 'advice', headline: 'Costs [[Monthly_Cost]] a month' },
  ])
  const byHeadline = new Map([...gate.nodes, ...region.nodes].filter((n) => n.headline).map((n) => [n.headline!, n]))
  const conditions = new Map([...gate.nodes, ...region.nodes].filter((n) => n.type === 'condition').map((n) => [n.expression!, n]))
  return { set, rules: { questions: questions.rule, gate: gate.rule, region: region.rule }, byHeadline, conditions }
}

/**
 * A set with many paths from few rows: a "Bands" rule of `bands` savings bands (two advice items each) that a main
 * rule calls `calls` times under conditions on Age, so it has calls × bands × 2 paths (+ the bands rule's own).
 */
export async function buildWideSet(db: Db, ownerId: string, opts: { calls: number; bands: number; name?: string }) {
  const set = await createAdviceSet(db, { ownerId, name: opts.name ?? 'Wide' })
  const bandNodes: NodeSpec[] = Array.from({ length: opts.bands }, (_, i) => ({
    type: 'condition', expression: `{{Savings}} >= ${i * 100} && {{Savings}} < ${(i + 1) * 100}`,
    children: [{ type: 'advice', headline: `Band ${i}` }, { type: 'advice', headline: `Tip ${i}` }],
  }))
  await buildRule(db, set.id, 'Questions', [{ type: 'inputRequest', variable: 'Age', question: 'How old are you?' }, { type: 'inputRequest', variable: 'Savings', question: 'Savings?' }])
  const bands = await buildRule(db, set.id, 'Bands', bandNodes)
  await buildRule(db, set.id, 'Main', Array.from({ length: opts.calls }, (_, i) => ({
    type: 'condition', expression: `{{Age}} >= ${i}`, children: [{ type: 'ruleCall', calledRuleId: bands.rule.id }],
  })))
  return { set, paths: 2 + opts.calls * opts.bands * 2 + opts.bands * 2 }
}

/**
 * Issue 23's mortgage-affordability set: questions for Income and Debts under "Always", and three bands of the
 * formula Ratio = Debts / Income (Income 0 divides by zero). Dictionary entries made here (once per owner).
 */
export async function buildMortgageSet(db: Db, ownerId: string, name = 'Mortgage affordability') {
  if (!(await findEntityByName(db, ownerId, 'Income'))) await createVariable(db, ownerId, 'Income')
  if (!(await findEntityByName(db, ownerId, 'Debts'))) await createVariable(db, ownerId, 'Debts')
  if (!(await findEntityByName(db, ownerId, 'Ratio'))) await createFormula(db, ownerId, 'Ratio', '{{Debts}} / {{Income}}')
  const set = await createAdviceSet(db, { ownerId, name })
  const { rule, nodes } = await buildRule(db, set.id, 'Affordability', [{ type: 'conditionAlways', children: [
    { type: 'inputRequest', variable: 'Income', question: 'What is your income?' },
    { type: 'inputRequest', variable: 'Debts', question: 'What do you owe?' },
    { type: 'condition', expression: '[[Ratio]] > 0.4', children: [{ type: 'advice', headline: 'Your debts are too high' }] },
    { type: 'condition', expression: '[[Ratio]] <= 0.4 && [[Ratio]] > 0.2', children: [{ type: 'advice', headline: 'You can afford it' }] },
    { type: 'condition', expression: '[[Ratio]] <= 0.2', children: [{ type: 'advice', headline: 'You can easily afford it' }] },
  ] }])
  return { set, rule, byHeadline: new Map(nodes.filter((n) => n.headline).map((n) => [n.headline!, n])) }
}

/**
 * Issue 24's pension-drawdown set: ages from a birth date (age() and year()), a percent, a product and a sum of
 * answers, and a called rule "Tax check" under a 55–75 condition. Every path of it can be reached.
 */
export async function buildDrawdownSet(db: Db, ownerId: string, name = 'Drawdown') {
  const variables: Array<[string, string]> = [['Birth_Date', 'date'], ['Pot', 'number'], ['Withdrawal_Rate', 'percent']]
  for (const [variable, dataType] of variables) if (!(await findEntityByName(db, ownerId, variable))) await createVariable(db, ownerId, variable, { dataType })
  const formulas: Array<[string, string]> = [
    ['Client_Age', 'age({{Birth_Date}})'], ['Years_Old', 'year(today()) - year({{Birth_Date}})'], ['Annual_Income', '{{Pot}} * {{Withdrawal_Rate}}'],
  ]
  for (const [formula, expression] of formulas) if (!(await findEntityByName(db, ownerId, formula))) await createFormula(db, ownerId, formula, expression)
  const set = await createAdviceSet(db, { ownerId, name })
  await buildRule(db, set.id, 'Questions', [
    { type: 'inputRequest', variable: 'Birth_Date', question: 'When were you born?' },
    { type: 'inputRequest', variable: 'Pot', question: 'How large is your pot?' },
    { type: 'inputRequest', variable: 'Withdrawal_Rate', question: 'How much do you take out each year?' },
  ])
  const tax = await buildRule(db, set.id, 'Tax check', [
    { type: 'condition', expression: '[[Annual_Income]] > 12570', children: [{ type: 'advice', headline: 'Income tax will apply' }] },
    { type: 'condition', expression: '[[Annual_Income]] <= 12570', children: [{ type: 'advice', headline: 'No income tax' }] },
  ])
  const plan = await buildRule(db, set.id, 'Drawdown plan', [
    { type: 'condition', expression: '[[Client_Age]] > 75', children: [{ type: 'advice', headline: 'Consider an annuity' }] },
    { type: 'condition', expression: '[[Client_Age]] >= 55 && [[Client_Age]] <= 75', children: [
      { type: 'ruleCall', calledRuleId: tax.rule.id },
      { type: 'condition', expression: '{{Withdrawal_Rate}} > 0.04', children: [{ type: 'advice', headline: 'Your withdrawal rate is high' }] },
    ] },
    { type: 'condition', expression: '[[Years_Old]] < 55', children: [{ type: 'advice', headline: 'Too early to draw' }] },
    { type: 'condition', expression: '{{Pot}} * 12 > 1200000', children: [{ type: 'advice', headline: 'A large pot' }] },
    { type: 'condition', expression: '{{Pot}} + 25000 >= 100000', children: [{ type: 'advice', headline: 'A top-up passes 100,000' }] },
  ])
  const byHeadline = new Map([...tax.nodes, ...plan.nodes].filter((n) => n.headline).map((n) => [n.headline!, n]))
  return { set, rules: { tax: tax.rule, plan: plan.rule }, byHeadline }
}
