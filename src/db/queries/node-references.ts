// The names each node refers to, kept beside it (rule_nodes.ref_keys, migration 0041), so that where a dictionary entry
// is used is found by an index instead of by reading every node of a team. Keys count only while the node is "trusted":
// its ref_hash is the hash of its fields now (rule_node_ref_hash). Any other node is stale: readers parse it again, and
// the filler (authoring/node-references.ts) stores its keys.
import { and, asc, eq, gt, inArray, isNull, notInArray, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { adviceSets, nodeReferenceCounts, ruleNodes, rules } from '../schema/index.ts'
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

/** `order`: an expression of the node's id to sort by, to keep the planner from the primary key (nodesWithKeys). */
async function ownedNodes(db: Db, where: SQL | undefined, limit: number, order: SQL = sql`${ruleNodes.id}`): Promise<ScopedNode[]> {
  const rows = await db.select({
    node: ruleNodes, adviceSetId: adviceSets.id, adviceSetName: adviceSets.name, ownerId: adviceSets.ownerId,
    isPublic: adviceSets.isPublic, isStarter: adviceSets.isStarter, ruleName: rules.name, stale: sql<boolean>`${STALE}`,
  }).from(ruleNodes)
    .innerJoin(rules, eq(rules.id, ruleNodes.ruleId)).innerJoin(adviceSets, eq(adviceSets.id, rules.adviceSetId))
    .where(where).orderBy(asc(order)).limit(limit)
  return rows.map((r) => ({ ...r.node, adviceSetId: r.adviceSetId, adviceSetName: r.adviceSetName, ownerId: r.ownerId, isPublic: r.isPublic, isStarter: r.isStarter, ruleName: r.ruleName, stale: r.stale }))
}

/**
 * Nodes in scope, in id order after `afterId`, whose stored names include any of `keys`, stale or not (`stale` says
 * which: a node edited since keeps names that may no longer hold). Without the hash in the condition, the
 * planner's estimate is the index's own: a name that thousands of nodes use is read by walking the nodes in id order,
 * a rare one from the index. With it, the estimate of a hash comparison (a guess) made it walk 2,000,000 nodes for a
 * name no node used (2.2 s). The index's estimate is a guess too (1 % of the nodes): `few` (the caller knows from the
 * kept counts) orders by an expression, which no index gives, so the names' index is read and its nodes sorted. A name
 * 0 of 2,000,000 nodes use: 9 ms instead of 466 (the walk), where a name 500,000 use is found by the walk at once.
 */
export function nodesWithKeys(db: Db, keys: readonly string[], scope: ReferenceScope, p: { afterId: number; limit: number; few: boolean }): Promise<ScopedNode[]> {
  if (keys.length === 0) return Promise.resolve([])
  return ownedNodes(db, and(sql`${ruleNodes.refKeys} && ${textArray(keys)}`, inScope(scope), gt(ruleNodes.id, p.afterId)), p.limit, p.few ? sql`${ruleNodes.id} + 0` : undefined)
}

/** Stale nodes in scope, in id order after `afterId`: what they refer to is read from their fields. */
export function staleNodesIn(db: Db, scope: ReferenceScope, p: { afterId: number; limit: number }): Promise<ScopedNode[]> {
  return ownedNodes(db, and(STALE, inScope(scope), gt(ruleNodes.id, p.afterId)), p.limit)
}

/** Uses of a target (by index) by an owner's nodes: in one set, or (adviceSetId null) in all the owner's live sets. */
export interface ReferenceCount { target: number; ownerId: string; adviceSetId: number | null; uses: number }

function intArray(values: readonly number[]): SQL {
  return sql`array[${sql.join(values.map((v) => sql`${v}`), sql`, `)}]::int[]`
}

/**
 * The kept counts (node_reference_counts, migration 0042) of each target (`variable:X` or `formula:X`) per owner, of
 * these owners (all when absent): the trusted nodes of live rules of live sets. One index read per target and owner,
 * however many nodes use it.
 */
export async function keptReferenceCounts(db: Db, targets: readonly string[], ownerIds: readonly string[] | undefined): Promise<ReferenceCount[]> {
  if (targets.length === 0) return []
  const rows = rowsOf(await db.execute(sql`
    select t.target - 1 as target, ${nodeReferenceCounts.ownerId} as owner_id, ${nodeReferenceCounts.uses} as uses
    from unnest(${textArray(targets)}) with ordinality as t(key, target)
      join ${nodeReferenceCounts} on ${nodeReferenceCounts.target} = t.key
    where ${nodeReferenceCounts.uses} <> 0 ${ownerIds ? sql`and ${inArray(nodeReferenceCounts.ownerId, [...ownerIds])}` : sql``}`))
  return rows.map((r) => ({ target: Number(r.target), ownerId: String(r.owner_id), adviceSetId: null, uses: Number(r.uses) }))
}

/**
 * How many trusted nodes of one set's live rules refer to a target (either of its two keys), per target: for entries
 * limited to a set. The set's nodes are read by their rules (the `offset 0` keeps the planner from reading a common
 * name's nodes of every set from the names' index instead), so the cost is the set's size, not the team's.
 */
export async function setReferenceCounts(db: Db, targets: ReadonlyArray<{ adviceSetId: number; keys: readonly [string, string] }>): Promise<ReferenceCount[]> {
  if (targets.length === 0) return []
  const rows = rowsOf(await db.execute(sql`
    select t.target - 1 as target, ${adviceSets.ownerId} as owner_id, ${adviceSets.id} as advice_set_id, c.uses
    from unnest(${intArray(targets.map((t) => t.adviceSetId))}, ${textArray(targets.map((t) => t.keys[0]))}, ${textArray(targets.map((t) => t.keys[1]))})
        with ordinality as t(advice_set_id, first_key, second_key, target)
      join ${adviceSets} on ${adviceSets.id} = t.advice_set_id and ${isNull(adviceSets.deletedAt)}
      cross join lateral (
        select count(*)::int as uses from (
          select ${ruleNodes.refKeys} as ref_keys, ${TRUSTED} as trusted from ${rules} join ${ruleNodes} on ${ruleNodes.ruleId} = ${rules.id}
          where ${rules.adviceSetId} = t.advice_set_id and ${isNull(rules.deletedAt)} and ${isNull(ruleNodes.deletedAt)}
          offset 0
        ) as n where n.trusted and n.ref_keys && array[t.first_key, t.second_key]
      ) as c
    where c.uses > 0`))
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
 * old hash, so it stays stale: no lock is needed against a writer. The nodes' rules are locked first (FOR SHARE, in id
 * order), as every writer of nodes does (nodeUpdate), so that a set's removal does not miss a node trusted meanwhile.
 */
export async function storeNodeReferences(db: Db, rows: ReadonlyArray<{ id: number; keys: string[]; hash: string }>): Promise<void> {
  if (rows.length === 0) return
  await db.execute(sql`
    with v as (select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id int, keys text[], hash text)),
      locked as (
        select ${rules.id} from ${rules} where ${rules.id} in (select ${ruleNodes.ruleId} from ${ruleNodes} join v on v.id = ${ruleNodes.id})
        order by ${rules.id} for share
      )
    update ${ruleNodes} set ref_keys = v.keys, ref_hash = v.hash
    from v
    where ${ruleNodes.id} = v.id and ${ruleNodes.ruleId} in (select id from locked)`)
}
