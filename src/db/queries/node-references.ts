// The names each node refers to, kept beside it (rule_nodes.ref_keys, migration 0041), so that where a dictionary entry
// is used is found by an index instead of by reading every node of a team. Keys count only while the node is "trusted":
// its ref_hash is the hash of its fields now (rule_node_ref_hash). Any other node is stale: readers parse it again, and
// the filler (authoring/node-references.ts) stores its keys.
import { and, asc, eq, gt, inArray, isNull, notInArray, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { adviceSets, ruleNodes, rules } from '../schema/index.ts'
import { rowsOf, type OwnedNode, type RuleNodeRow } from './rule-nodes.ts'

/** Which live nodes a reader looks at: of these owners' sets (all owners when absent), but not those, and of one set. */
export interface ReferenceScope { ownerIds?: string[]; exceptOwnerIds?: string[]; adviceSetId?: number }

/** Written as the partial index rule_nodes_refs_stale_idx's predicate, so that the planner proves the index applies. */
const FIELDS_HASH = sql`rule_node_ref_hash(${ruleNodes.type}, ${ruleNodes.expression}, ${ruleNodes.variable}, ${ruleNodes.headline}, ${ruleNodes.text}, ${ruleNodes.question})`
const STALE = sql`${ruleNodes.refHash} is distinct from ${FIELDS_HASH}`
const TRUSTED = sql`${ruleNodes.refHash} = ${FIELDS_HASH}`

function textArray(values: readonly string[]): SQL {
  return sql`array[${sql.join(values.map((v) => sql`${v}`), sql`, `)}]::text[]`
}

function inScope(scope: ReferenceScope): SQL | undefined {
  return and(isNull(ruleNodes.deletedAt), inSetScope(scope))
}

/** inScope's conditions on the node's rule and set. */
function inSetScope(scope: ReferenceScope): SQL | undefined {
  return and(
    isNull(rules.deletedAt), isNull(adviceSets.deletedAt),
    scope.ownerIds ? inArray(adviceSets.ownerId, scope.ownerIds) : undefined,
    scope.exceptOwnerIds?.length ? notInArray(adviceSets.ownerId, scope.exceptOwnerIds) : undefined,
    scope.adviceSetId !== undefined ? eq(adviceSets.id, scope.adviceSetId) : undefined,
  )
}

/** A node in scope with whether its stored names are stale (to be read from its fields again). */
export type ScopedNode = OwnedNode & { stale: boolean }

async function ownedNodes(db: Db, where: SQL | undefined, limit: number): Promise<ScopedNode[]> {
  const rows = await db.select({
    node: ruleNodes, adviceSetId: adviceSets.id, adviceSetName: adviceSets.name, ownerId: adviceSets.ownerId,
    isPublic: adviceSets.isPublic, isStarter: adviceSets.isStarter, ruleName: rules.name, stale: sql<boolean>`${STALE}`,
  }).from(ruleNodes)
    .innerJoin(rules, eq(rules.id, ruleNodes.ruleId)).innerJoin(adviceSets, eq(adviceSets.id, rules.adviceSetId))
    .where(where).orderBy(asc(ruleNodes.id)).limit(limit)
  return rows.map((r) => ({ ...r.node, adviceSetId: r.adviceSetId, adviceSetName: r.adviceSetName, ownerId: r.ownerId, isPublic: r.isPublic, isStarter: r.isStarter, ruleName: r.ruleName, stale: r.stale }))
}

/**
 * Nodes in scope, in id order after `afterId`, whose stored names include any of `keys`, stale or not (`stale` says
 * which: a node edited since keeps names that may no longer hold). Without the hash in the condition, the
 * planner's estimate is the index's own: a name that thousands of nodes use is read by walking the nodes in id order,
 * a rare one from the index. With it, the estimate of a hash comparison (a guess) made it walk 2,000,000 nodes for a
 * name no node used (2.2 s).
 */
export function nodesWithKeys(db: Db, keys: readonly string[], scope: ReferenceScope, p: { afterId: number; limit: number }): Promise<ScopedNode[]> {
  if (keys.length === 0) return Promise.resolve([])
  return ownedNodes(db, and(sql`${ruleNodes.refKeys} && ${textArray(keys)}`, inScope(scope), gt(ruleNodes.id, p.afterId)), p.limit)
}

/** Stale nodes in scope, in id order after `afterId`: what they refer to is read from their fields. */
export function staleNodesIn(db: Db, scope: ReferenceScope, p: { afterId: number; limit: number }): Promise<ScopedNode[]> {
  return ownedNodes(db, and(STALE, inScope(scope), gt(ruleNodes.id, p.afterId)), p.limit)
}

export interface ReferenceCount { target: number; ownerId: string; adviceSetId: number; uses: number }

/**
 * How many trusted nodes in scope refer to each target, per set: a target is an entry's two keys (its kind and name,
 * and its name written bare), and a node that has both is one use. Each target's nodes are counted per rule by the
 * index alone, and only the rules are looked up: per node, the lookups of its rule and set cost PGlite 10 µs.
 */
export async function referenceCounts(db: Db, targets: ReadonlyArray<readonly [string, string]>, scope: ReferenceScope): Promise<ReferenceCount[]> {
  if (targets.length === 0) return []
  const rows = rowsOf(await db.execute(sql`
    select t.target - 1 as target, ${adviceSets.ownerId} as owner_id, ${adviceSets.id} as advice_set_id, sum(c.uses)::int as uses
    from unnest(${textArray(targets.map((t) => t[0]))}, ${textArray(targets.map((t) => t[1]))}) with ordinality as t(first_key, second_key, target)
      cross join lateral (
        select ${ruleNodes.ruleId} as rule_id, count(*) as uses from ${ruleNodes}
        where ${ruleNodes.refKeys} && array[t.first_key, t.second_key] and ${TRUSTED} and ${isNull(ruleNodes.deletedAt)}
        group by 1
      ) as c
      join ${rules} on ${rules.id} = c.rule_id join ${adviceSets} on ${adviceSets.id} = ${rules.adviceSetId}
    where ${inSetScope(scope)}
    group by 1, 2, 3`))
  return rows.map((r) => ({ target: Number(r.target), ownerId: String(r.owner_id), adviceSetId: Number(r.advice_set_id), uses: Number(r.uses) }))
}

export type ReferenceFields = Pick<RuleNodeRow, 'id' | 'type' | 'expression' | 'variable' | 'headline' | 'text' | 'question'>

/** Stale nodes of any set, deleted ones too (a recovered node is then filled in already), for the filler. */
export async function staleNodeFields(db: Db, p: { afterId: number; limit: number }): Promise<ReferenceFields[]> {
  return db.select({
    id: ruleNodes.id, type: ruleNodes.type, expression: ruleNodes.expression, variable: ruleNodes.variable,
    headline: ruleNodes.headline, text: ruleNodes.text, question: ruleNodes.question,
  }).from(ruleNodes).where(and(STALE, gt(ruleNodes.id, p.afterId))).orderBy(asc(ruleNodes.id)).limit(p.limit)
}

/**
 * Stores the keys read from fields whose hash is `hash`. A node changed since it was read keeps the new fields and the
 * old hash, so it stays stale: no lock is needed against a writer.
 */
export async function storeNodeReferences(db: Db, rows: ReadonlyArray<{ id: number; keys: string[]; hash: string }>): Promise<void> {
  if (rows.length === 0) return
  await db.execute(sql`
    update ${ruleNodes} set ref_keys = v.keys, ref_hash = v.hash
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id int, keys text[], hash text)
    where ${ruleNodes.id} = v.id`)
}
