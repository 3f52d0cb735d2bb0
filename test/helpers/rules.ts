// Rules and trees straight through the query layer (no audit rows, so tests count only what they cause).
import type { Db } from '../../src/db/client.ts'
import { insertEntity } from '../../src/db/queries/entities.ts'
import { insertNode, listNodes, type NodeContent, type RuleNodeRow } from '../../src/db/queries/rule-nodes.ts'
import { insertRule, listRules, type RuleRow } from '../../src/db/queries/rules.ts'
import { ENTITY_TYPES } from '../../src/engine/index.ts'

export type NodeSpec = Partial<Omit<NodeContent, 'type'>> & { type: string; children?: NodeSpec[] }

/** A rule appended to the set, with its tree built from nested specs; returns the rule and its nodes in spec order. */
export async function buildRule(db: Db, adviceSetId: number, name: string, nodes: NodeSpec[] = []): Promise<{ rule: RuleRow; nodes: RuleNodeRow[] }> {
  const rule = await insertRule(db, { adviceSetId, name, position: (await listRules(db, adviceSetId)).length, createdBy: null })
  const made: RuleNodeRow[] = []
  const add = async (specs: NodeSpec[], parentId: number | null) => {
    for (const [position, spec] of specs.entries()) {
      const { children, ...content } = spec
      const node = await insertNode(db, {
        ruleId: rule.id, parentId, position, type: content.type, expression: content.expression ?? null, variable: content.variable ?? null,
        headline: content.headline ?? null, text: content.text ?? null, question: content.question ?? null, calledRuleId: content.calledRuleId ?? null,
        apiId: content.apiId ?? null, tags: content.tags ?? [], sources: content.sources ?? [], createdBy: null,
      })
      made.push(node)
      await add(children ?? [], node.id)
    }
  }
  await add(nodes, null)
  return { rule, nodes: made }
}

export async function createVariable(db: Db, ownerId: string, name: string, opts: { dataType?: string; adviceSetId?: number; options?: string[] } = {}) {
  return insertEntity(db, {
    ownerId, adviceSetId: opts.adviceSetId ?? null, entityTypeId: ENTITY_TYPES.variable.id, reservedName: name, dataType: opts.dataType ?? 'number',
    validOptions: opts.options ?? [], isClosedSet: false, displayFormat: null, defaultValue: null, expression: null, isConstant: false, description: '', createdBy: null,
  })
}

export async function createFormula(db: Db, ownerId: string, name: string, expression: string, opts: { adviceSetId?: number } = {}) {
  return insertEntity(db, {
    ownerId, adviceSetId: opts.adviceSetId ?? null, entityTypeId: ENTITY_TYPES.formula.id, reservedName: name, dataType: 'number',
    validOptions: [], isClosedSet: false, displayFormat: null, defaultValue: null, expression, isConstant: false, description: '', createdBy: null,
  })
}

/** Live siblings' positions per parent: every list must read 0..n-1. */
export async function positionsByParent(db: Db, ruleId: number): Promise<Map<number | null, number[]>> {
  const byParent = new Map<number | null, number[]>()
  for (const node of await listNodes(db, [ruleId])) byParent.set(node.parentId, [...(byParent.get(node.parentId) ?? []), node.position])
  return byParent
}
