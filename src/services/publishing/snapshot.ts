// What a version holds: the set as the engine runs it (rules, trees, the dictionary entries they use, rules of other
// sets they call) and the set's metadata, as canonical JSON with a content hash.
import { createHash } from 'node:crypto'
import type { Db } from '../../db/client.ts'
import { findAdviceSet } from '../../db/queries/advice-sets.ts'
import type { AdviceSetModel, EntityModel, NodeModel, RuleModel } from '../../engine/index.ts'
import { buildAdviceSetModel, namesOfExpression, namesOfNode } from '../authoring/advice-set-model.ts'
import { NotFoundError } from '../errors.ts'

export interface VersionSnapshot {
  adviceSet: { id: number; name: string; nameAlt: string; description: string }
  model: AdviceSetModel
}

/** JSON with object keys sorted at every depth, so equal content always gives equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v
    const sorted: Record<string, unknown> = {}
    for (const key of Object.keys(v).sort()) sorted[key] = (v as Record<string, unknown>)[key]
    return sorted
  })
}

export function contentHashOf(snapshot: VersionSnapshot): string {
  return createHash('sha256').update(canonicalJson(snapshot)).digest('hex')
}

function namesUsedBy(rules: RuleModel[]): string[] {
  const names: string[] = []
  const visit = (node: NodeModel) => {
    const used = namesOfNode({
      type: node.type, expression: node.expression ?? null, variable: node.variable ?? null,
      headline: node.headline ?? null, text: node.text ?? null, question: node.question ?? null,
    })
    names.push(...used.variables, ...used.formulas, ...used.sets)
    node.children.forEach(visit)
  }
  rules.forEach((rule) => rule.nodes.forEach(visit))
  return names
}

/** The dictionary entries the rules read or set, directly or through the formulas they use. */
export function entitiesInUse(model: AdviceSetModel): EntityModel[] {
  const byName = new Map<string, EntityModel[]>()
  for (const entity of model.entities) byName.set(entity.name, [...(byName.get(entity.name) ?? []), entity])
  const wanted = new Set<string>()
  const pending = namesUsedBy([...model.rules, ...(model.externalRules ?? [])])
  while (pending.length > 0) {
    const name = pending.pop()!
    if (wanted.has(name) || !byName.has(name)) continue
    wanted.add(name)
    for (const entity of byName.get(name)!) if (entity.expression && entity.kind === 'formula') pending.push(...namesOfExpression(entity.expression))
  }
  return model.entities.filter((e) => wanted.has(e.name))
}

/** The set as stored now, read inside `tx` so it is one consistent picture. */
export async function snapshotAdviceSet(tx: Db, adviceSetId: number): Promise<VersionSnapshot> {
  const set = await findAdviceSet(tx, adviceSetId)
  if (!set) throw new NotFoundError('No advice set with this id')
  const model = await buildAdviceSetModel(tx, adviceSetId)
  return {
    adviceSet: { id: set.id, name: set.name, nameAlt: set.nameAlt, description: set.description },
    model: { ...model, entities: entitiesInUse(model) },
  }
}
