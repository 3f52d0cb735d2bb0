// A small advice set to test scenarios against: a retirement question that forks on age, then on a risk choice.
//   Age (number) → Age >= 65: advice "Retire" │ Age < 65: Risk (select low/high) → high: advice "Shares" (+ Score = Age * 2)
//   and an assumption that always shows once Age is known.
import type { Db } from '../../src/db/client.ts'
import { createAdviceSet } from './advice-sets.ts'
import { buildRule, createVariable } from './rules.ts'

export async function retirementSet(db: Db, ownerId: string, opts: { name?: string; isPublic?: boolean } = {}) {
  const set = await createAdviceSet(db, { ownerId, name: opts.name ?? 'Retirement', isPublic: opts.isPublic ?? false })
  await createVariable(db, ownerId, 'Age', { dataType: 'number', adviceSetId: set.id })
  await createVariable(db, ownerId, 'Risk', { dataType: 'select', options: ['low', 'high'], adviceSetId: set.id })
  await createVariable(db, ownerId, 'Score', { dataType: 'number', adviceSetId: set.id })
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
