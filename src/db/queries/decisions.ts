// Decision records (issue 26): written in batches by the recorder, read by the decisions pages and API, kept in monthly
// partitions that retention drops whole.
import { and, asc, count, desc, eq, gt, gte, inArray, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm'
import { embeddedClientOf, embeddedServerOf, type Db } from '../client.ts'
import { adviceSets, apiKeys, decisionCounts, decisionRecords, entities, owners } from '../schema/index.ts'
import { encodeOutcome } from '../schema/decision-outcome.ts'
import { copyDecisionRecords, DECISION_RECORD_COLUMNS } from './decision-copy.ts'
import { rowsOf } from './rule-nodes.ts'

export type DecisionRecordRow = typeof decisionRecords.$inferSelect
export type NewDecisionRecord = typeof decisionRecords.$inferInsert

/**
 * A record as the writers take it: its columns in DECISION_RECORD_COLUMNS' order as one JSON array, the json columns
 * (inputs, outcome) as their text, so they keep it as written: the inputs in the canonical order the record was built
 * in, the outcome in its compact form. The recorder encodes each answer's record at once: a buffered record is then
 * one string until its write, where the row's tree of objects had lived through garbage collections (a tenth of a
 * second in best effort, or a commit's wait) and been copied and marked by each.
 */
export interface EncodedDecisionRecord { ownerId: string; json: string }

export function encodeDecisionRecord(row: NewDecisionRecord): EncodedDecisionRecord {
  return {
    ownerId: row.ownerId,
    json: JSON.stringify([
      row.id, row.receivedAt, row.ownerId, row.adviceSetId, row.versionId, row.versionNumber, row.apiKeyId, row.environment, row.endpoint,
      row.contentType, JSON.stringify(row.inputs), row.personalHashes ?? [], row.status, row.adviceNodeIds ?? [], row.hasErrors ?? false,
      encodeOutcome(row.outcome), row.engineMicros,
    ]),
  }
}

export async function insertDecisionRecords(db: Db, rows: NewDecisionRecord[]): Promise<void> {
  await writeDecisionRecords(db, rows.map(encodeDecisionRecord))
}

/**
 * One statement for the whole batch, which commits or fails as one (the recorder's group commit). On PostgreSQL, an
 * insert of the rows as one JSON parameter unpacked by jsonb_array_elements: a thousand rows cost a fifth of what a
 * thousand-row VALUES list does to build and parse. On the embedded database, a COPY (decision-copy.ts), which on its
 * worker thread the worker runs itself: the batch crosses to it as one string.
 */
export async function writeDecisionRecords(db: Db, records: readonly EncodedDecisionRecord[]): Promise<void> {
  if (records.length === 0) return
  const json = `[${records.map((record) => record.json).join(',')}]`
  const embedded = embeddedClientOf(db)
  if (embedded) return copyDecisionRecords(embedded, json)
  const served = embeddedServerOf(db)
  if (served) return served.copyDecisionRecords(json)
  await db.execute(sql`
    insert into decision_records (${sql.raw(DECISION_RECORD_COLUMNS)})
    select (r->>0)::uuid, (r->>1)::timestamptz, r->>2, (r->>3)::int, (r->>4)::int, (r->>5)::int, (r->>6)::int, r->>7, r->>8,
      r->>9, (r->>10)::json, array(select jsonb_array_elements_text(r->11)), r->>12, array(select jsonb_array_elements_text(r->13)),
      (r->>14)::boolean, (r->>15)::json, (r->>16)::int
    from jsonb_array_elements(${json}::jsonb) as r`)
}

/** A record by id, within the minute its UUIDv7 says it was made (so only that month's partition is read). */
export async function findDecisionRecord(db: Db, id: string, madeAt: Date): Promise<DecisionRecordRow | undefined> {
  const from = new Date(madeAt.getTime() - 60_000)
  const to = new Date(madeAt.getTime() + 60_000)
  const [row] = await db.select().from(decisionRecords)
    .where(and(eq(decisionRecords.id, id), gte(decisionRecords.receivedAt, from), lte(decisionRecords.receivedAt, to))).limit(1)
  return row
}

export interface DecisionFilter {
  adviceSetId: number
  from?: Date
  to?: Date
  apiKeyId?: number
  versionNumber?: number
  adviceNodeId?: string
  status?: string
  hasErrors?: boolean
  /** Keyset: records older than this one (received_at, id), newest first. */
  before?: { receivedAt: Date; id: string }
}

/** The conditions of a filter, shared by the list, its count and the export. */
function decisionWhere(filter: DecisionFilter): SQL {
  const where: SQL[] = [eq(decisionRecords.adviceSetId, filter.adviceSetId)]
  if (filter.from) where.push(gte(decisionRecords.receivedAt, filter.from))
  if (filter.to) where.push(lt(decisionRecords.receivedAt, filter.to))
  if (filter.apiKeyId !== undefined) where.push(eq(decisionRecords.apiKeyId, filter.apiKeyId))
  if (filter.versionNumber !== undefined) where.push(eq(decisionRecords.versionNumber, filter.versionNumber))
  if (filter.adviceNodeId !== undefined) where.push(sql`${decisionRecords.adviceNodeIds} @> array[${filter.adviceNodeId}]::text[]`)
  if (filter.status !== undefined) where.push(eq(decisionRecords.status, filter.status))
  // Written out, not as a parameter, so the planner can use the index of records with errors (a partial index).
  if (filter.hasErrors !== undefined) where.push(filter.hasErrors ? sql`${decisionRecords.hasErrors}` : sql`not ${decisionRecords.hasErrors}`)
  if (filter.before) {
    // A row comparison, which the (advice_set_id, received_at, id) index bounds: written as an OR, each page of a
    // keyset walk read the index from the newest record down to its place, so deep pages cost ever more.
    const { receivedAt, id } = filter.before
    where.push(sql`(${decisionRecords.receivedAt}, ${decisionRecords.id}) < (${receivedAt.toISOString()}::timestamptz, ${id}::uuid)`)
  }
  return and(...where)!
}

export async function listDecisionRecords(db: Db, filter: DecisionFilter, limit: number): Promise<DecisionRecordRow[]> {
  return db.select().from(decisionRecords).where(decisionWhere(filter))
    .orderBy(desc(decisionRecords.receivedAt), desc(decisionRecords.id)).limit(limit)
}

/** What a replay reads of each record (decisions/replay-batch.ts), newest first: only the columns it compares. */
export type ReplayRecordRow = Pick<DecisionRecordRow, 'id' | 'receivedAt' | 'apiKeyId' | 'inputs' | 'status' | 'outcome'>

export async function listRecordsToReplay(db: Db, filter: DecisionFilter, limit: number): Promise<ReplayRecordRow[]> {
  return db.select({
    id: decisionRecords.id, receivedAt: decisionRecords.receivedAt, apiKeyId: decisionRecords.apiKeyId,
    inputs: decisionRecords.inputs, status: decisionRecords.status, outcome: decisionRecords.outcome,
  }).from(decisionRecords).where(decisionWhere(filter)).orderBy(desc(decisionRecords.receivedAt), desc(decisionRecords.id)).limit(limit)
}

/** Holds one of these hashes; the first clause lets the planner use the partial index of records with personal values. */
function hasAnyHash(hashes: string[]): SQL {
  return sql`${decisionRecords.personalHashes} <> '{}'::text[] and ${decisionRecords.personalHashes} && ${sql.param(hashes)}::text[]`
}

/**
 * How many records match, or with `upTo` how many up to that: a replay needs at most its thousand, and a published
 * version of a big team has millions.
 */
export async function countDecisionRecords(db: Db, filter: DecisionFilter, upTo?: number): Promise<number> {
  const matching = db.select({ one: sql`1` }).from(decisionRecords).where(decisionWhere(filter))
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from((upTo === undefined ? matching : matching.limit(upTo)).as('matching'))
  return row?.n ?? 0
}

/** A key's count: the sum of its stripes' rows (migration 0051). */
const counted = sql<number>`sum(${decisionCounts.count})`.mapWith(Number)

/** Records per UTC day of a set since `from` (days without records are absent), from the kept counts. */
export async function decisionCountsPerDay(db: Db, adviceSetId: number, from: Date): Promise<Array<{ day: string; count: number }>> {
  return db.select({ day: decisionCounts.day, count: counted }).from(decisionCounts)
    .where(and(eq(decisionCounts.adviceSetId, adviceSetId), gte(decisionCounts.day, from.toISOString().slice(0, 10)), eq(decisionCounts.nodeId, '')))
    .groupBy(decisionCounts.day).having(gt(counted, 0)).orderBy(decisionCounts.day)
}

/** How many of a set's records since `from` gave each advice item, most given first, from the kept counts. */
export async function decisionAdviceCounts(db: Db, adviceSetId: number, from: Date): Promise<Array<{ nodeId: string; count: number }>> {
  return db.select({ nodeId: decisionCounts.nodeId, count: counted }).from(decisionCounts)
    .where(and(eq(decisionCounts.adviceSetId, adviceSetId), gte(decisionCounts.day, from.toISOString().slice(0, 10)), ne(decisionCounts.nodeId, '')))
    .groupBy(decisionCounts.nodeId).having(gt(counted, 0)).orderBy(desc(counted), decisionCounts.nodeId)
}

/**
 * Folds the counts of days before `day` (YYYY-MM-DD) into stripe 0, one row a key, and deletes the keys whose records
 * are all gone; the number of rows it took away. Only today's answers are written by many connections at once, so the
 * days before need one row a key, and the set page's 30 days read those. It reads only the rows not yet folded (their
 * partial index) and their keys' other rows, locked first in key order as the triggers take them: an erasure of past
 * answers may be subtracting meanwhile.
 */
export async function foldDecisionCounts(db: Db, day: string): Promise<number> {
  return db.transaction(async (tx) => {
    const [emptied] = rowsOf(await tx.execute(sql`with locked as (
        select c.advice_set_id, c.day, c.node_id, c.count
        from (select distinct advice_set_id, day, node_id from decision_counts where day < ${day}::date and stripe <> 0) k,
          -- Each key's rows by the primary key (as a join, the planner walked the whole of it to merge).
          lateral (select * from decision_counts c where c.advice_set_id = k.advice_set_id and c.day = k.day and c.node_id = k.node_id) c
        order by c.advice_set_id, c.day, c.node_id, c.stripe for update of c),
      -- The sums read every locked row, so all are locked before any is deleted.
      empty as (select advice_set_id, day, node_id from locked group by 1, 2, 3 having sum(count) = 0),
      gone as (delete from decision_counts c using empty e
        where c.advice_set_id = e.advice_set_id and c.day = e.day and c.node_id = e.node_id returning 1)
      select count(*)::int as n from gone`))
    const [moved] = rowsOf(await tx.execute(sql`with moved as (delete from decision_counts where day < ${day}::date and stripe <> 0 returning advice_set_id, day, node_id, count),
      folded as (insert into decision_counts (advice_set_id, day, node_id, stripe, count)
        select advice_set_id, day, node_id, 0, sum(count)::int from moved group by 1, 2, 3 order by 1, 2, 3
        on conflict (advice_set_id, day, node_id, stripe) do update set count = decision_counts.count + excluded.count)
      select count(*)::int as n from moved`))
    return Number(emptied?.n ?? 0) + Number(moved?.n ?? 0)
  })
}

/** Records of an owner holding any of these personal-value hashes (subject access and erasure). */
export async function findDecisionsByPersonalHash(db: Db, ownerId: string, hashes: string[], limit: number): Promise<DecisionRecordRow[]> {
  return db.select().from(decisionRecords)
    .where(and(eq(decisionRecords.ownerId, ownerId), hasAnyHash(hashes)))
    .orderBy(desc(decisionRecords.receivedAt), desc(decisionRecords.id)).limit(limit)
}

export async function countDecisionsByPersonalHash(db: Db, ownerId: string, hashes: string[]): Promise<number> {
  const [row] = await db.select({ n: count() }).from(decisionRecords)
    .where(and(eq(decisionRecords.ownerId, ownerId), hasAnyHash(hashes)))
  return row?.n ?? 0
}

export async function deleteDecisionsByPersonalHash(db: Db, ownerId: string, hashes: string[]): Promise<number> {
  const gone = await db.delete(decisionRecords)
    .where(and(eq(decisionRecords.ownerId, ownerId), hasAnyHash(hashes)))
    .returning({ id: decisionRecords.id })
  return gone.length
}

export interface OwnerDecisionSettings { mode: string; retentionDays: number }

export async function findOwnerDecisionSettings(db: Db, ownerId: string): Promise<OwnerDecisionSettings | undefined> {
  const [row] = await db.select({ mode: owners.decisionMode, retentionDays: owners.decisionRetentionDays }).from(owners).where(eq(owners.id, ownerId)).limit(1)
  return row
}

/** The personal variables a set's runs can read: its own dictionary entries and its owner's. */
export async function personalVariableNames(db: Db, ownerId: string, adviceSetId: number): Promise<string[]> {
  const rows = await db.select({ name: entities.reservedName }).from(entities)
    .where(and(eq(entities.ownerId, ownerId), eq(entities.personal, true), sql`${entities.deletedAt} is null`,
      or(sql`${entities.adviceSetId} is null`, eq(entities.adviceSetId, adviceSetId))))
  return rows.map((row) => row.name)
}

/** Adds what the best-effort buffer dropped, per owner, to the count its admins see. */
export async function addDroppedDecisions(db: Db, counts: Map<string, number>, at: Date): Promise<void> {
  for (const [ownerId, count] of counts) {
    await db.update(owners).set({ decisionsDropped: sql`${owners.decisionsDropped} + ${count}`, decisionsDroppedAt: at }).where(eq(owners.id, ownerId))
  }
}

/** Creates the month's partition unless it exists (or the default partition already holds rows of that month). */
export async function ensureMonthPartition(db: Db, monthStart: Date): Promise<void> {
  const next = new Date(Date.UTC(monthStart.getUTCFullYear(), monthStart.getUTCMonth() + 1, 1))
  const name = `decision_records_y${monthStart.getUTCFullYear()}m${String(monthStart.getUTCMonth() + 1).padStart(2, '0')}`
  const [found] = rowsOf(await db.execute(sql`select exists (
    select 1 from decision_records_default where received_at >= ${monthStart.toISOString()}::timestamptz and received_at < ${next.toISOString()}::timestamptz) as taken`))
  if (found?.taken === true) return
  await db.execute(sql.raw(`create table if not exists "${name}" partition of decision_records
    for values from ('${monthStart.toISOString()}') to ('${next.toISOString()}')`))
}

/** Month partitions whose whole range ended before `cutoff`: retention drops them. */
export async function dropMonthPartitionsBefore(db: Db, cutoff: Date): Promise<string[]> {
  const parts = rowsOf(await db.execute(sql`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
    where p.relname = 'decision_records' and c.relname <> 'decision_records_default'`))
  const dropped: string[] = []
  for (const part of parts) {
    const name = String(part.name)
    const to = /TO \('([^']+)'\)/.exec(String(part.bound))?.[1]
    if (!to || new Date(to) > cutoff || !/^decision_records_y\d{4}m\d{2}$/.test(name)) continue
    await db.execute(sql.raw(`drop table if exists "${name}"`))
    // Dropping a partition fires no delete trigger: its days leave the kept counts here.
    await db.delete(decisionCounts).where(lt(decisionCounts.day, to.slice(0, 10)))
    dropped.push(name)
  }
  return dropped
}

/** Deletes an owner's records older than its retention (the part of a month not yet dropped whole). */
export async function deleteDecisionsBefore(db: Db, ownerId: string, cutoff: Date): Promise<number> {
  const gone = await db.delete(decisionRecords).where(and(eq(decisionRecords.ownerId, ownerId), lt(decisionRecords.receivedAt, cutoff))).returning({ id: decisionRecords.id })
  return gone.length
}

/** The owner of the key a record was asked with (deleted keys too: a record outlives its key). */
export async function apiKeyOwnerOf(db: Db, apiKeyId: number): Promise<string | undefined> {
  const [row] = await db.select({ ownerId: apiKeys.ownerId }).from(apiKeys).where(eq(apiKeys.id, apiKeyId)).limit(1)
  return row?.ownerId
}

export interface OwnerDecisionRecordsRow { id: string; name: string; mode: string; retentionDays: number; dropped: number; droppedAt: Date | null }

const ownerDecisionColumns = {
  id: owners.id, name: owners.name, mode: owners.decisionMode, retentionDays: owners.decisionRetentionDays,
  dropped: owners.decisionsDropped, droppedAt: owners.decisionsDroppedAt,
}

/** What an owner's admins see and set of its decision records: the mode, the retention, and what was dropped. */
export async function findOwnerDecisionRecords(db: Db, ownerId: string): Promise<OwnerDecisionRecordsRow | undefined> {
  const [row] = await db.select(ownerDecisionColumns).from(owners).where(eq(owners.id, ownerId)).limit(1)
  return row
}

export async function updateOwnerDecisionRecords(db: Db, ownerId: string, p: { decisionMode: string; decisionRetentionDays: number }): Promise<OwnerDecisionRecordsRow> {
  const [row] = await db.update(owners).set(p).where(eq(owners.id, ownerId)).returning(ownerDecisionColumns)
  return row!
}

export interface PersonalVariableRow { name: string; dataType: string | null; validOptions: string[] }

/** An owner's live personal variables, owner-wide and of each of its sets (one name may appear once per set). */
export async function listPersonalVariables(db: Db, ownerId: string, variableTypeId: number): Promise<PersonalVariableRow[]> {
  return db.select({ name: entities.reservedName, dataType: entities.dataType, validOptions: entities.validOptions }).from(entities)
    .where(and(eq(entities.ownerId, ownerId), eq(entities.personal, true), eq(entities.entityTypeId, variableTypeId), sql`${entities.deletedAt} is null`))
    .orderBy(asc(sql`lower(${entities.reservedName})`), asc(entities.id))
}

/** Names of advice sets by id (deleted ones too: their records outlive them). */
export async function adviceSetNamesOf(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map()
  const rows = await db.select({ id: adviceSets.id, name: adviceSets.name }).from(adviceSets).where(inArray(adviceSets.id, ids))
  return new Map(rows.map((row) => [row.id, row.name]))
}
