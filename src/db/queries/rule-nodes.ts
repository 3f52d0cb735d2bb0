import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { adviceSets, ruleNodes, rules } from '../schema/index.ts'
import { NEW_KEY } from '../schema/rules.ts'
import { copyNodeLinks } from './supplements.ts'

export type RuleNodeRow = typeof ruleNodes.$inferSelect
export type NodeContent = Pick<RuleNodeRow, 'type' | 'expression' | 'variable' | 'headline' | 'text' | 'question' | 'calledRuleId' | 'apiId' | 'tags' | 'sources'>

export async function findNode(db: Db, id: number, opts: { includeDeleted?: boolean } = {}): Promise<RuleNodeRow | undefined> {
  const [row] = await db.select().from(ruleNodes)
    .where(and(eq(ruleNodes.id, id), opts.includeDeleted ? undefined : isNull(ruleNodes.deletedAt))).limit(1)
  return row
}

/** Every live node of the given rules, siblings in order. */
export async function listNodes(db: Db, ruleIds: number[]): Promise<RuleNodeRow[]> {
  if (ruleIds.length === 0) return []
  return db.select().from(ruleNodes).where(and(inArray(ruleNodes.ruleId, ruleIds), isNull(ruleNodes.deletedAt)))
    .orderBy(asc(ruleNodes.ruleId), asc(sql`coalesce(${ruleNodes.parentId}, 0)`), asc(ruleNodes.position))
}

/** Every node that ever lived in a set's rules: deleted ones and those of deleted rules too. */
export async function listSetNodesEver(db: Db, adviceSetId: number): Promise<RuleNodeRow[]> {
  const rows = await db.select({ node: ruleNodes }).from(ruleNodes).innerJoin(rules, eq(rules.id, ruleNodes.ruleId))
    .where(eq(rules.adviceSetId, adviceSetId)).orderBy(asc(ruleNodes.id))
  return rows.map((r) => r.node)
}

/** Live children of a parent (null: the rule's roots), in order. */
export async function listChildren(db: Db, ruleId: number, parentId: number | null): Promise<RuleNodeRow[]> {
  return db.select().from(ruleNodes)
    .where(and(eq(ruleNodes.ruleId, ruleId), parentId === null ? isNull(ruleNodes.parentId) : eq(ruleNodes.parentId, parentId), isNull(ruleNodes.deletedAt)))
    .orderBy(asc(ruleNodes.position))
}

/** Holds the rule row until the caller's transaction ends, for a change of the rule row itself (promoting it to a set). */
export async function lockRuleRow(tx: Db, ruleId: number): Promise<void> {
  await tx.select({ id: rules.id }).from(rules).where(eq(rules.id, ruleId)).for('update')
}

/**
 * Serialises every structural change of one rule's tree (a node added, moved, removed or brought back): the caller holds
 * it until its transaction ends. The changes wait for each other on an advisory lock of the rule, and hold its row FOR
 * SHARE, as every node edit does, so that the rule's removal waits for them. Not the row FOR UPDATE: a rename holds
 * the row of every rule it rewrites FOR SHARE for as long as it runs (over a minute at full size), and a new node in any
 * of those rules waited that long. In one statement, the advisory lock first (the row is locked above the scan).
 */
export async function lockRuleTree(tx: Db, ruleId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`rule-tree:${ruleId}`})) from rules where id = ${ruleId} for share`)
}

/** `key` left out: a new one (a new node, a copy); given: the node a version held comes back (publishing/restore-trees.ts). */
export type NodeInsert = NodeContent & Partial<Pick<RuleNodeRow, 'key' | 'id' | 'refKeys' | 'refHash'>> & { ruleId: number; parentId: number | null; position: number; createdBy: number | null }

/** An id for a node about to be inserted, so that what depends on it can be sent with the insert. */
export async function nextNodeId(db: Db): Promise<number> {
  const [row] = rowsOf(await db.execute(sql`select nextval(pg_get_serial_sequence('rule_nodes', 'id'))::int as id`))
  return Number(row!.id)
}

export async function insertNode(db: Db, p: NodeInsert): Promise<RuleNodeRow> {
  const [row] = await db.insert(ruleNodes).values({ ...p, updatedBy: p.createdBy }).returning()
  return row!
}

/** About how much JSON one insert of nodes carries: a 20 MB import then never holds one 20 MB parameter at once. */
const NODE_BATCH_BYTES = 1 << 20
const NODE_BATCH_ROWS = 5000

/**
 * Many nodes, their ids in the order given. The rows travel as one JSON parameter per batch (of at most 5,000 rows
 * and about a megabyte) read by jsonb_to_recordset: a restore or an import of thousands of nodes otherwise spends
 * seconds building VALUES lists of fifteen parameters a row. A node without a key gets a new one, as the column's
 * default would give it.
 */
export async function insertNodes(db: Db, rows: NodeInsert[]): Promise<number[]> {
  const ids: number[] = []
  let batch: NodeInsert[] = []
  let json: string[] = []
  let bytes = 0
  const flush = async () => {
    if (batch.length === 0) return
    const inserted = rowsOf(await db.execute(sql`
      insert into rule_nodes (rule_id, key, parent_id, position, type, expression, variable, headline, text, question, called_rule_id, api_id, tags, sources, created_by, updated_by)
      select rule_id, coalesce(key, ${NEW_KEY}), parent_id, position, type, expression, variable, headline, text,
        question, called_rule_id, api_id, coalesce(tags, '{}'), coalesce(sources, '[]'), created_by, created_by
      from jsonb_to_recordset(${`[${json.join(',')}]`}::jsonb) as x(rule_id int, key text, parent_id int, position int, type text, expression text, variable text,
        headline text, text text, question text, called_rule_id int, api_id text, tags text[], sources jsonb, created_by int)
      returning id, rule_id, parent_id, position`))
    // Live places are unique (schema/rules.ts), so each row's id is found by its place.
    const idOf = new Map(inserted.map((r) => [`${r.rule_id}:${r.parent_id}:${r.position}`, Number(r.id)]))
    for (const p of batch) ids.push(idOf.get(`${p.ruleId}:${p.parentId}:${p.position}`)!)
    batch = []
    json = []
    bytes = 0
  }
  for (const p of rows) {
    const row = JSON.stringify({
      rule_id: p.ruleId, key: p.key ?? null, parent_id: p.parentId, position: p.position, type: p.type, expression: p.expression, variable: p.variable,
      headline: p.headline, text: p.text, question: p.question, called_rule_id: p.calledRuleId, api_id: p.apiId, tags: p.tags, sources: p.sources, created_by: p.createdBy,
    })
    if (batch.length === NODE_BATCH_ROWS || (bytes > 0 && bytes + row.length > NODE_BATCH_BYTES)) await flush()
    batch.push(p)
    json.push(row)
    bytes += row.length
  }
  await flush()
  return ids
}

type NodeChange = Partial<NodeContent & Pick<RuleNodeRow, 'ruleId' | 'parentId' | 'position' | 'deletedAt' | 'refKeys' | 'refHash'>> & { updatedBy: number | null }

export async function updateNode(db: Db, id: number, p: NodeChange): Promise<RuleNodeRow> {
  const [row] = await nodeUpdate(db, id, p, new Date()).returning()
  return row!
}

/**
 * updateNode's statement, not yet sent, updated at `at`: a part of a change's one statement (audited-change.ts). The
 * node's rule row is locked (FOR SHARE) before the node is written: a rule's or set's removal then waits for this
 * write's commit, or this write for theirs, so that the kept uses of names (migration 0042) count each node once.
 */
export function nodeUpdate(db: Db, id: number, p: NodeChange, at: Date) {
  return db.update(ruleNodes).set({ ...p, updatedAt: at })
    .where(and(eq(ruleNodes.id, id), sql`${ruleNodes.ruleId} = (select ${rules.id} from ${rules} where ${rules.id} = ${ruleNodes.ruleId} for share)`))
}

/** The text fields a rename rewrites (services/authoring/entities.ts). */
const TEXT_FIELDS = ['expression', 'variable', 'headline', 'text', 'question'] as const
export type NodeTextChange = Partial<Pick<RuleNodeRow, typeof TEXT_FIELDS[number]>>

/**
 * Text changes of many nodes (a batch of a rename) in one statement: each node gets only the fields given for it, and
 * the names it refers to after them (`refs`, as referencesOf reads them), so that it stays trusted and no reader
 * parses it again until the filler comes. Each node's rule row is locked FOR SHARE first, as nodeUpdate locks it.
 * Returns the ids of the nodes changed.
 */
export async function updateNodeTexts(
  db: Db, changes: readonly { id: number; fields: NodeTextChange; refs: { refKeys: string[]; refHash: string } }[], by: number | null, at: Date,
): Promise<number[]> {
  if (changes.length === 0) return []
  // The field names are the columns' names.
  const set = TEXT_FIELDS.map((field) =>
    sql`${sql.identifier(field)} = case when c.f ? ${field} then c.f ->> ${field} else n.${sql.identifier(field)} end`)
  const result = await db.execute(sql`
    update rule_nodes n set ${sql.join(set, sql`, `)},
      ref_keys = array(select jsonb_array_elements_text(c.r -> 'refKeys')), ref_hash = c.r ->> 'refHash',
      updated_by = ${by}, updated_at = ${at.toISOString()}::timestamptz
    from (select (e ->> 'id')::int as id, e -> 'fields' as f, e -> 'refs' as r from jsonb_array_elements(${JSON.stringify(changes)}::jsonb) e) c
    where n.id = c.id and n.rule_id = (select r.id from rules r where r.id = n.rule_id for share)
    returning n.id`)
  return rowsOf(result).map((row) => Number(row.id))
}

/** Positions 0..n-1 in list order for live siblings; two steps for the same reason as renumberRules. */
export async function renumberNodes(tx: Db, orderedIds: number[]): Promise<void> {
  if (orderedIds.length === 0) return
  const values = sql.join(orderedIds.map((id, i) => sql`(${id}::int, ${i}::int)`), sql`, `)
  await tx.execute(sql`update rule_nodes set position = -1 - v.pos from (values ${values}) as v(id, pos) where rule_nodes.id = v.id`)
  await tx.execute(sql`update rule_nodes set position = -1 - position where id in (${sql.join(orderedIds.map((id) => sql`${id}`), sql`, `)})`)
}

/**
 * The node (or nodes) and all descendants; `deletedAt` given: only those removed by that same delete. Roots of which
 * one is under another give the nodes below both twice.
 */
export async function subtreeIds(db: Db, roots: number | number[], opts: { deletedAt?: Date | null } = {}): Promise<number[]> {
  return rowsOf(await db.execute(subtreeQuery(roots, opts))).map((r) => Number(r.id))
}

/** The ids of subtreeIds as a query, to select by inside another statement. */
export function subtreeQuery(roots: number | number[], opts: { deletedAt?: Date | null } = {}): SQL {
  const filter = opts.deletedAt === undefined ? sql`true`
    : opts.deletedAt === null ? sql`n.deleted_at is null` : sql`n.deleted_at = ${opts.deletedAt.toISOString()}::timestamptz`
  const rootIds = sql.join([roots].flat().map((id) => sql`${id}`), sql`, `)
  return sql`
    with recursive tree(id) as (
      select id from rule_nodes where id in (${rootIds})
      union all
      select n.id from rule_nodes n join tree on n.parent_id = tree.id where ${filter}
    ) select id from tree`
}

export async function setNodesDeleted(db: Db, ids: number[], deletedAt: Date | null, updatedBy: number | null): Promise<void> {
  if (ids.length === 0) return
  await db.update(ruleNodes).set({ deletedAt, updatedBy, updatedAt: new Date() }).where(inArray(ruleNodes.id, ids))
}

/** Rows of db.execute on either driver (postgres.js returns the array, PGlite an object with rows). */
export function rowsOf(result: unknown): Array<Record<string, unknown>> {
  return Array.isArray(result) ? result : ((result as { rows: Array<Record<string, unknown>> }).rows)
}

export interface OwnedNode extends RuleNodeRow { adviceSetId: number; adviceSetName: string; ownerId: string; isPublic: boolean; isStarter: boolean; ruleName: string }

/** Live nodes of live rules of live sets, limited to sets of these owners (and optionally one set). */
export async function listOwnedNodes(db: Db, p: { ownerIds?: string[]; adviceSetId?: number; type?: string; tag?: string }): Promise<OwnedNode[]> {
  const rows = await db.select({
    node: ruleNodes, adviceSetId: adviceSets.id, adviceSetName: adviceSets.name, ownerId: adviceSets.ownerId,
    isPublic: adviceSets.isPublic, isStarter: adviceSets.isStarter, ruleName: rules.name,
  }).from(ruleNodes)
    .innerJoin(rules, eq(rules.id, ruleNodes.ruleId)).innerJoin(adviceSets, eq(adviceSets.id, rules.adviceSetId))
    .where(and(
      isNull(ruleNodes.deletedAt), isNull(rules.deletedAt), isNull(adviceSets.deletedAt),
      p.ownerIds ? inArray(adviceSets.ownerId, p.ownerIds) : undefined,
      p.adviceSetId !== undefined ? eq(adviceSets.id, p.adviceSetId) : undefined,
      p.type !== undefined ? eq(ruleNodes.type, p.type) : undefined,
      p.tag !== undefined ? sql`${ruleNodes.tags} @> array[${p.tag}]::text[]` : undefined,
    ))
    .orderBy(asc(adviceSets.id), asc(rules.position), asc(ruleNodes.id))
  return rows.map((r) => ({ ...r.node, adviceSetId: r.adviceSetId, adviceSetName: r.adviceSetName, ownerId: r.ownerId, isPublic: r.isPublic, isStarter: r.isStarter, ruleName: r.ruleName }))
}

export interface CopyNodesOptions {
  createdBy: number | null
  /** Parent of the copied roots (null: top level of the rule). */
  rootParent?: number | null
  /** Which rows are the roots of the copy; default the rows without a parent. */
  rootIds?: Set<number>
  /** Where Rule Calls of the copy point (a whole set copied calls its own copies). */
  mapCalledRule?: (id: number) => number
}

/** Inserts copies of `rows` (parents before children) into rule `ruleId`, with their linked supplements; returns old id → new id. */
export async function copyNodeRows(tx: Db, rows: RuleNodeRow[], ruleId: number, opts: CopyNodesOptions): Promise<Map<number, number>> {
  const ids = new Map<number, number>()
  for (const row of rows) {
    const isRoot = opts.rootIds ? opts.rootIds.has(row.id) : row.parentId === null
    const parentId = isRoot ? (opts.rootParent ?? null) : ids.get(row.parentId ?? -1)
    if (parentId === undefined) continue
    const calledRuleId = row.calledRuleId !== null && opts.mapCalledRule ? opts.mapCalledRule(row.calledRuleId) : row.calledRuleId
    const copy = await insertNode(tx, {
      ruleId, parentId, position: row.position, type: row.type, expression: row.expression, variable: row.variable, headline: row.headline,
      text: row.text, question: row.question, calledRuleId, apiId: row.apiId, tags: row.tags, sources: row.sources, createdBy: opts.createdBy,
    })
    ids.set(row.id, copy.id)
  }
  await copyNodeLinks(tx, ids, opts.createdBy)
  return ids
}

/** Parents before children, siblings in order: the order copyNodeRows needs. */
export function parentsFirst(rows: RuleNodeRow[]): RuleNodeRow[] {
  const byParent = new Map<number | null, RuleNodeRow[]>()
  for (const row of rows) {
    const list = byParent.get(row.parentId)
    if (list) list.push(row)
    else byParent.set(row.parentId, [row])
  }
  const ids = new Set(rows.map((r) => r.id))
  const ordered: RuleNodeRow[] = []
  const visit = (row: RuleNodeRow) => { ordered.push(row); (byParent.get(row.id) ?? []).forEach(visit) }
  rows.filter((r) => r.parentId === null || !ids.has(r.parentId)).forEach(visit)
  return ordered
}
