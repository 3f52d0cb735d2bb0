// A small advice set to test scenarios against: a retirement question that forks on age, then on a risk choice.
//   Age (number) → Age >= 65: advice "Retire" │ Age < 65: Risk (select low/high) → high: advice "Shares" (+ Score = Age * 2)
//   and an assumption that always shows once Age is known.
import type { Db } from '../../src/db/client.ts'
import { findEntityByName } from '../../src/db/queries/entities.ts'
import { createAdviceSet } from './advice-sets.ts'
import { buildRule, createVariable } from './rules.ts'

/** The owner's dictionary entry, made the first time a set of this shape is built for it (names are unique per owner). */
async function ensureVariable(db: Db, ownerId: string, name: string, opts: { dataType: string; options?: string[] }) {
  if (!(await findEntityByName(db, ownerId, name))) await createVariable(db, ownerId, name, opts)
}

export async function retirementSet(db: Db, ownerId: string, opts: { name?: string; isPublic?: boolean; isStarter?: boolean } = {}) {
  const set = await createAdviceSet(db, { ownerId, name: opts.name ?? 'Retirement', isPublic: opts.isPublic ?? false, isStarter: opts.isStarter ?? false })
  await ensureVariable(db, ownerId, 'Age', { dataType: 'number' })
  await ensureVariable(db, ownerId, 'Risk', { dataType: 'select', options: ['low', 'high'] })
  await ensureVariable(db, ownerId, 'Score', { dataType: 'number' })
  const { rule, nodes } = await buildRule(db, set.id, 'Plan', [
    { type: 'inputRequest', variable: 'Age', question: 'How old are you?' },
    { type: 'advice', headline: 'Figures are before tax', tags: ['assumption'] },
    { type: 'condition', expression: '{{Age}} >= 65', children: [{ type: 'advice', headline: 'Retire' }] },
    { type: 'condition', expression: '{{Age}} < 65', children: [
      { type: 'inputRequest', variable: 'Risk', question: 'How much risk do you take?' },
      { type: 'condition', expression: '{{Risk}} == "high"', children: [
        { type: 'variableAssignment', expression: '{{Score}} = {{Age}} * 2' },
        { type: 'advice', headline: 'Shares' },
      ] },
    ] },
  ])
  const [askAge, assumption, old, retire, young, askRisk, high, score, shares] = nodes.map((n) => String(n.id)) as [string, string, string, string, string, string, string, string, string]
  return { set, rule, ids: { askAge, assumption, old, retire, young, askRisk, high, score, shares } }
}
