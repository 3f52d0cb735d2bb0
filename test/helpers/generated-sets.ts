// Generated advice sets (test/fixtures/engine/random-sets.ts) stored in the database: their variables X (number),
// Y (select), B (boolean) and a formula F, each either the set's own entry or the owner's, plus a called rule.
import fc from 'fast-check'
import type { Db } from '../../src/db/client.ts'
import { insertEntity } from '../../src/db/queries/entities.ts'
import { ENTITY_TYPES } from '../../src/engine/index.ts'
import type { NodeModel } from '../../src/engine/model.ts'
import { OPTIONS_Y } from '../fixtures/engine/random-sets.ts'
import { createAdviceSet } from './advice-sets.ts'
import type { Agent } from './agent.ts'
import { buildRule, type NodeSpec } from './rules.ts'

/** Which entries are the set's own (the rest are the owner's), and whether the called rule runs only when called. */
export type Shape = { ownX: boolean; ownY: boolean; ownB: boolean; ownF: boolean; calledOnly: boolean }
export type Answers = { X: number; Y: string; B: boolean }
export const shape: fc.Arbitrary<Shape> = fc.record({ ownX: fc.boolean(), ownY: fc.boolean(), ownB: fc.boolean(), ownF: fc.boolean(), calledOnly: fc.boolean() })
export const answers: fc.Arbitrary<Answers> = fc.record({ X: fc.integer({ min: -1, max: 11 }), Y: fc.constantFrom(...OPTIONS_Y), B: fc.boolean() })

let run = 0

async function entry(db: Db, ownerId: string, name: string, own: boolean, setId: number, fields: { dataType: string; options?: string[]; expression?: string }) {
  await insertEntity(db, {
    ownerId, adviceSetId: own ? setId : null, entityTypeId: fields.expression ? ENTITY_TYPES.formula.id : ENTITY_TYPES.variable.id, reservedName: name,
    dataType: fields.dataType, validOptions: fields.options ?? [], isClosedSet: fields.options !== undefined, displayFormat: null, defaultValue: null,
    expression: fields.expression ?? null, isConstant: false, description: '', createdBy: null,
  })
}

/** Stores a generated set under names of this run (owner-wide names are unique in the owner); `author` marks the called rule. */
export async function storeGeneratedSet(db: Db, ownerId: string, author: Agent, model: { rules: Array<{ nodes: NodeModel[] }> }, s: Shape) {
  run += 1
  const names = { X: `X_${run}`, Y: `Y_${run}`, B: `B_${run}`, F: `F_${run}` }
  const rename = (text: string) => text.replace(/\{\{([XYB])\}\}/g, (_m, n: 'X' | 'Y' | 'B') => `{{${names[n]}}}`)
  const set = await createAdviceSet(db, { ownerId, name: `Generated ${run}` })
  await entry(db, ownerId, names.X, s.ownX, set.id, { dataType: 'number' })
  await entry(db, ownerId, names.Y, s.ownY, set.id, { dataType: 'select', options: OPTIONS_Y })
  await entry(db, ownerId, names.B, s.ownB, set.id, { dataType: 'boolean' })
  await entry(db, ownerId, names.F, s.ownF, set.id, { dataType: 'number', expression: `{{${names.X}}} * 2 + 1` })
  let advice = 0
  const spec = (node: NodeModel): NodeSpec => node.type === 'advice'
    ? { type: 'advice', headline: `Advice ${++advice}`, text: `X {{${names.X}}}, F [[${names.F}]], Y {{${names.Y}}}, B {{${names.B}}}` }
    : { type: node.type, ...(node.expression ? { expression: rename(node.expression) } : {}), children: node.children.map(spec) }
  const { rule: called } = await buildRule(db, set.id, 'Called', [
    { type: 'condition', expression: `[[${names.F}]] > 9`, children: [{ type: 'advice', headline: 'Big F', text: `[[${names.F}]] from {{${names.X}}}` }] },
  ])
  if (s.calledOnly) await author.api('PATCH', `/api/rule/${called.id}`, { onlyWhenCalled: true })
  for (const [i, rule] of model.rules.entries()) {
    await buildRule(db, set.id, `Rule ${i}`, [...rule.nodes.map(spec), ...(i === 0 ? [{ type: 'ruleCall', calledRuleId: called.id }] : [])])
  }
  const inputsOf = (a: Answers) => ({ [names.X]: a.X, [names.Y]: a.Y, [names.B]: a.B })
  return { set, names, inputsOf }
}
