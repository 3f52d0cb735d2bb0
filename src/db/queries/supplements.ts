import { and, asc, desc, eq, ilike, inArray, isNull, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { adviceSets, owners, ruleNodes, rules, supplementLinks, supplements, type SupplementFormat, type SupplementTarget } from '../schema/index.ts'
import { escapeLike } from './advice-sets.ts'

export type SupplementRow = typeof supplements.$inferSelect
export type SupplementInsert = Omit<typeof supplements.$inferInsert, 'id' | 'createdAt' | 'updatedAt' | 'deletedAt' | 'updatedBy'>
export type SupplementChanges = Partial<Pick<SupplementRow, 'name' | 'type' | 'description' | 'url' | 'imageUrl' | 'source' | 'deletedAt'>>
export type LinkRow = typeof supplementLinks.$inferSelect

export async function insertSupplement(db: Db, p: SupplementInsert): Promise<SupplementRow> {
  const [row] = await db.insert(supplements).values({ ...p, updatedBy: p.createdBy }).returning()
  return row!
}

export async function findSupplement(db: Db, id: number, opts: { includeDeleted?: boolean } = {}): Promise<SupplementRow | undefined> {
  const [row] = await db.select().from(supplements)
    .where(and(eq(supplements.id, id), opts.includeDeleted ? undefined : isNull(supplements.deletedAt))).limit(1)
  return row
}

export async function updateSupplement(db: Db, id: number, p: SupplementChanges & { updatedBy: number | null }): Promise<SupplementRow> {
  const [row] = await db.update(supplements).set({ ...p, updatedAt: new Date() }).where(eq(supplements.id, id)).returning()
  return row!
}

export interface ListSupplementsParams {
  /** Owners whose supplements to list; undefined: every owner's (provider admins). */
  ownerIds?: string[]
  formats: readonly SupplementFormat[]
  /** Part of the name, any case. */
  text?: string
  offset: number
  limit: number
}

export interface SupplementListRow extends SupplementRow { ownerName: string }

export async function listSupplements(db: Db, p: ListSupplementsParams): Promise<{ rows: SupplementListRow[]; total: number }> {
  const where = and(
    isNull(supplements.deletedAt),
    p.ownerIds ? inArray(supplements.ownerId, p.ownerIds) : undefined,
    inArray(supplements.format, [...p.formats]),
    p.text ? ilike(supplements.name, `%${escapeLike(p.text)}%`) : undefined,
  )
  const rows = await db.select({ supplement: supplements, ownerName: owners.name, total: sql<number>`count(*) over()`.mapWith(Number) })
    .from(supplements).innerJoin(owners, eq(owners.id, supplements.ownerId))
    .where(where).orderBy(desc(supplements.updatedAt), desc(supplements.id)).limit(p.limit).offset(p.offset)
  let total = rows[0]?.total ?? 0
  if (rows.length === 0 && p.offset > 0) {
    const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(supplements).where(where)
    total = row?.n ?? 0
  }
  return { rows: rows.map((r) => ({ ...r.supplement, ownerName: r.ownerName })), total }
}

// Links ---------------------------------------------------------------------------------------------------------------

export async function findLink(db: Db, p: { supplementId: number; targetType: SupplementTarget; targetId: number }): Promise<LinkRow | undefined> {
  const [row] = await db.select().from(supplementLinks).where(and(
    eq(supplementLinks.supplementId, p.supplementId), eq(supplementLinks.targetType, p.targetType), eq(supplementLinks.targetId, p.targetId),
  )).limit(1)
  return row
}

export async function insertLink(db: Db, p: { supplementId: number; targetType: SupplementTarget; targetId: number; createdBy: number | null }): Promise<LinkRow> {
  const [row] = await db.insert(supplementLinks).values(p).returning()
  return row!
}

export async function deleteLink(db: Db, id: number): Promise<void> {
  await db.delete(supplementLinks).where(eq(supplementLinks.id, id))
}

/** Live supplements linked to one target, in the order they were linked. */
export async function listLinkedSupplements(db: Db, targetType: SupplementTarget, targetId: number): Promise<Array<SupplementRow & { linkId: number }>> {
  const rows = await db.select({ supplement: supplements, linkId: supplementLinks.id }).from(supplementLinks)
    .innerJoin(supplements, eq(supplements.id, supplementLinks.supplementId))
    .where(and(eq(supplementLinks.targetType, targetType), eq(supplementLinks.targetId, targetId), isNull(supplements.deletedAt)))
    .orderBy(asc(supplementLinks.id))
  return rows.map((r) => ({ ...r.supplement, linkId: r.linkId }))
}

/** listLinkedSupplements for many targets of one type at once: each target's list, in link order. */
export async function listLinkedSupplementsOf(db: Db, targetType: SupplementTarget, targetIds: number[]): Promise<Map<number, Array<SupplementRow & { linkId: number }>>> {
  const byTarget = new Map<number, Array<SupplementRow & { linkId: number }>>()
  for (let i = 0; i < targetIds.length; i += 5000) {
    const rows = await db.select({ supplement: supplements, linkId: supplementLinks.id, targetId: supplementLinks.targetId }).from(supplementLinks)
      .innerJoin(supplements, eq(supplements.id, supplementLinks.supplementId))
      .where(and(eq(supplementLinks.targetType, targetType), inArray(supplementLinks.targetId, targetIds.slice(i, i + 5000)), isNull(supplements.deletedAt)))
      .orderBy(asc(supplementLinks.id))
    for (const r of rows) byTarget.set(r.targetId, [...(byTarget.get(r.targetId) ?? []), { ...r.supplement, linkId: r.linkId }])
  }
  return byTarget
}

/** Live supplements linked to live nodes, by node id, for the nodes of some rules (each list in link order). */
export async function nodeSupplements(db: Db, ruleIds: number[]): Promise<Map<number, SupplementRow[]>> {
  const byNode = new Map<number, SupplementRow[]>()
  if (ruleIds.length === 0) return byNode
  const rows = await db.select({ nodeId: ruleNodes.id, supplement: supplements }).from(supplementLinks)
    .innerJoin(ruleNodes, and(eq(supplementLinks.targetType, 'ruleNode'), eq(ruleNodes.id, supplementLinks.targetId)))
    .innerJoin(supplements, eq(supplements.id, supplementLinks.supplementId))
    .where(and(inArray(ruleNodes.ruleId, ruleIds), isNull(ruleNodes.deletedAt), isNull(supplements.deletedAt)))
    .orderBy(asc(supplementLinks.id))
  for (const { nodeId, supplement } of rows) byNode.set(nodeId, [...(byNode.get(nodeId) ?? []), supplement])
  return byNode
}

/** How many live supplements each node of a rule has linked (nodes without any are left out). */
export async function countNodeSupplements(db: Db, ruleId: number): Promise<Record<number, number>> {
  const rows = await db.select({ nodeId: ruleNodes.id, n: sql<number>`count(*)`.mapWith(Number) }).from(supplementLinks)
    .innerJoin(ruleNodes, and(eq(supplementLinks.targetType, 'ruleNode'), eq(ruleNodes.id, supplementLinks.targetId)))
    .innerJoin(supplements, eq(supplements.id, supplementLinks.supplementId))
    .where(and(eq(ruleNodes.ruleId, ruleId), isNull(supplements.deletedAt)))
    .groupBy(ruleNodes.id)
  return Object.fromEntries(rows.map((r) => [r.nodeId, r.n]))
}

/** Copies the links of copied nodes to their copies (old node id → new node id). */
export async function copyNodeLinks(tx: Db, nodeIds: Map<number, number>, createdBy: number | null): Promise<void> {
  if (nodeIds.size === 0) return
  const links = await tx.select().from(supplementLinks)
    .where(and(eq(supplementLinks.targetType, 'ruleNode'), inArray(supplementLinks.targetId, [...nodeIds.keys()]))).orderBy(asc(supplementLinks.id))
  if (links.length === 0) return
  await tx.insert(supplementLinks)
    .values(links.map((link) => ({ supplementId: link.supplementId, targetType: link.targetType, targetId: nodeIds.get(link.targetId)!, createdBy })))
    .onConflictDoNothing()
}

/** Where a supplement is linked: each link with the node, rule and advice set it reaches and whether those are live. */
export interface LinkUse {
  linkId: number
  targetType: SupplementTarget
  targetId: number
  adviceSet: { id: number; name: string; ownerId: string; isPublic: boolean; isStarter: boolean; live: boolean }
  rule: { id: number; name: string; live: boolean } | null
  node: { id: number; type: string; headline: string | null; text: string | null; live: boolean } | null
}

export async function listLinkUses(db: Db, supplementIds: number[]): Promise<Array<LinkUse & { supplementId: number }>> {
  if (supplementIds.length === 0) return []
  const setColumns = { id: adviceSets.id, name: adviceSets.name, ownerId: adviceSets.ownerId, isPublic: adviceSets.isPublic, isStarter: adviceSets.isStarter, deletedAt: adviceSets.deletedAt }
  const nodeUses = await db.select({
    link: supplementLinks, set: setColumns,
    rule: { id: rules.id, name: rules.name, deletedAt: rules.deletedAt },
    node: { id: ruleNodes.id, type: ruleNodes.type, headline: ruleNodes.headline, text: ruleNodes.text, deletedAt: ruleNodes.deletedAt },
  }).from(supplementLinks)
    .innerJoin(ruleNodes, and(eq(supplementLinks.targetType, 'ruleNode'), eq(ruleNodes.id, supplementLinks.targetId)))
    .innerJoin(rules, eq(rules.id, ruleNodes.ruleId))
    .innerJoin(adviceSets, eq(adviceSets.id, rules.adviceSetId))
    .where(inArray(supplementLinks.supplementId, supplementIds))
  const setUses = await db.select({ link: supplementLinks, set: setColumns }).from(supplementLinks)
    .innerJoin(adviceSets, and(eq(supplementLinks.targetType, 'adviceSet'), eq(adviceSets.id, supplementLinks.targetId)))
    .where(inArray(supplementLinks.supplementId, supplementIds))
  const set = ({ deletedAt, ...s }: { id: number; name: string; ownerId: string; isPublic: boolean; isStarter: boolean; deletedAt: Date | null }) =>
    ({ ...s, live: deletedAt === null })
  return [
    ...setUses.map((u) => ({ supplementId: u.link.supplementId, linkId: u.link.id, targetType: u.link.targetType, targetId: u.link.targetId, adviceSet: set(u.set), rule: null, node: null })),
    ...nodeUses.map((u) => ({
      supplementId: u.link.supplementId, linkId: u.link.id, targetType: u.link.targetType, targetId: u.link.targetId, adviceSet: set(u.set),
      rule: { id: u.rule.id, name: u.rule.name, live: u.rule.deletedAt === null && u.set.deletedAt === null },
      node: { id: u.node.id, type: u.node.type, headline: u.node.headline, text: u.node.text, live: u.node.deletedAt === null && u.rule.deletedAt === null && u.set.deletedAt === null },
    })),
  ].sort((a, b) => a.linkId - b.linkId)
}

/** Search documents' source rows: live supplements by id, or a batch after an id. */
export async function supplementSearchRows(db: Db, by: { ids: number[] } | { afterId: number; limit: number }): Promise<Array<SupplementRow & { ownerName: string }>> {
  const base = db.select({ supplement: supplements, ownerName: owners.name }).from(supplements).innerJoin(owners, eq(owners.id, supplements.ownerId))
  const rows = 'ids' in by
    ? (by.ids.length === 0 ? [] : await base.where(and(inArray(supplements.id, by.ids), isNull(supplements.deletedAt))))
    : await base.where(and(sql`${supplements.id} > ${by.afterId}`, isNull(supplements.deletedAt))).orderBy(asc(supplements.id)).limit(by.limit)
  return rows.map((r) => ({ ...r.supplement, ownerName: r.ownerName }))
}

export async function countLiveSupplements(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(supplements).where(isNull(supplements.deletedAt))
  return row?.n ?? 0
}
