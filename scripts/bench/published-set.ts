// The synthetic advice set of the Advice API benches, stored as rows and published as a publish makes it.
import type { Db } from '../../src/db/client.ts'
import { insertEntity } from '../../src/db/queries/entities.ts'
import { ENTITY_TYPES, type NodeModel } from '../../src/engine/index.ts'
import { createAdviceSet } from '../../test/helpers/advice-sets.ts'
import { publishVersion } from '../../test/helpers/publishing.ts'
import { buildRule, type NodeSpec } from '../../test/helpers/rules.ts'
import { syntheticAdviceSet } from './fixtures/synthetic.ts'

/** The synthetic set stored as rows (rules, nodes, dictionary), so the version is made as a publish makes it. */
export async function seedPublishedSet(db: Db, ownerId: string, opts: { nodes: number; entities: boolean; extraRule?: { name: string; nodes: NodeSpec[] } }): Promise<number> {
  const model = syntheticAdviceSet(opts.nodes)
  for (const entity of opts.entities ? model.entities : []) {
    await insertEntity(db, {
      ownerId, adviceSetId: null, entityTypeId: (entity.kind === 'formula' ? ENTITY_TYPES.formula : ENTITY_TYPES.variable).id,
      reservedName: entity.name, dataType: entity.dataType ?? null, validOptions: entity.options ?? [], isClosedSet: entity.isClosedSet ?? false,
      displayFormat: entity.displayFormat ?? null, defaultValue: entity.defaultValue ?? null, expression: entity.expression ?? null,
      isConstant: false, description: '', createdBy: null,
    })
  }
  const set = await createAdviceSet(db, { ownerId, name: model.name })
  const spec = (node: NodeModel): NodeSpec => ({
    type: node.type, expression: node.expression ?? null, variable: node.variable ?? null, headline: node.headline ?? null,
    text: node.text ?? null, question: node.question ?? null, tags: node.tags ?? [], children: node.children.map(spec),
  })
  for (const rule of model.rules) await buildRule(db, set.id, rule.name, rule.nodes.map(spec))
  if (opts.extraRule) await buildRule(db, set.id, opts.extraRule.name, opts.extraRule.nodes)
  await publishVersion(db, { adviceSetId: set.id })
  return set.id
}
