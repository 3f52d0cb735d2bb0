// Advice scenarios and their runs. A scenario's status is its latest run's, read with a lateral join on the runs'
// (scenario_id, id) index, so listing never scans the whole history.
import { and, desc, eq, ilike, inArray, isNull, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { adviceScenarioRuns, adviceScenarios, adviceSets, ownerScenarioCounts, users, versions, type ScenarioDifferences, type ScenarioRunStatus } from '../schema/index.ts'
import { visibleKeptSum, visibleTo, type SetVisibility } from './advice-sets.ts'

export type ScenarioRow = typeof adviceScenarios.$inferSelect
export type ScenarioRunRow = typeof adviceScenarioRuns.$inferSelect
export type ScenarioFields = Pick<ScenarioRow, 'name' | 'description' | 'inputs' | 'runAsOf' | 'expected'> & Partial<Pick<ScenarioRow, 'pinnedResponses'>>
/** 'notRun' selects scenarios without any run. */
export type ScenarioStatusFilter = ScenarioRunStatus | 'notRun'

export async function insertScenario(db: Db, p: ScenarioFields & { adviceSetId: number; createdBy: number | null }): Promise<ScenarioRow> {
  const [row] = await db.insert(adviceScenarios).values({ ...p, updatedBy: p.createdBy }).returning()
  return row!
}

/** Rows per insert statement: nine values a row stay well under PostgreSQL's 65,535 parameters. */
const SCENARIOS_PER_INSERT = 1_000

/** Many scenarios at once (a set's copy): a statement per thousand, where one each cost a round trip and a trigger. */
export async function insertScenarios(db: Db, rows: Array<ScenarioFields & { adviceSetId: number; createdBy: number | null }>): Promise<void> {
  for (let i = 0; i < rows.length; i += SCENARIOS_PER_INSERT) {
    await db.insert(adviceScenarios).values(rows.slice(i, i + SCENARIOS_PER_INSERT).map((p) => ({ ...p, updatedBy: p.createdBy })))
  }
}

export async function updateScenario(db: Db, id: number, p: Partial<ScenarioFields> & { updatedBy: number | null; deletedAt?: Date | null }): Promise<ScenarioRow> {
  const [row] = await db.update(adviceScenarios).set({ ...p, updatedAt: new Date() }).where(eq(adviceScenarios.id, id)).returning()
  return row!
}

export async function findScenario(db: Db, id: number, opts: { includeDeleted?: boolean } = {}): Promise<ScenarioRow | undefined> {
  const [row] = await db.select().from(adviceScenarios)
    .where(and(eq(adviceScenarios.id, id), opts.includeDeleted ? undefined : isNull(adviceScenarios.deletedAt))).limit(1)
  return row
}

/** Live scenarios of a set by id (all of them when `ids` is undefined), oldest first. */
export async function findScenariosOfSet(db: Db, adviceSetId: number, ids?: number[]): Promise<ScenarioRow[]> {
  if (ids !== undefined && ids.length === 0) return []
  return db.select().from(adviceScenarios)
    .where(and(eq(adviceScenarios.adviceSetId, adviceSetId), isNull(adviceScenarios.deletedAt), ids ? inArray(adviceScenarios.id, ids) : undefined))
    .orderBy(adviceScenarios.id)
}

/** The live scenarios of these sets, by id within each: one query for a whole list of sets (choices in a form). */
export async function findScenarioNamesOfSets(db: Db, adviceSetIds: number[]): Promise<Array<{ id: number; adviceSetId: number; name: string }>> {
  if (adviceSetIds.length === 0) return []
  return db.select({ id: adviceScenarios.id, adviceSetId: adviceScenarios.adviceSetId, name: adviceScenarios.name }).from(adviceScenarios)
    .where(and(inArray(adviceScenarios.adviceSetId, adviceSetIds), isNull(adviceScenarios.deletedAt)))
    .orderBy(adviceScenarios.adviceSetId, adviceScenarios.id)
}

const runColumns = {
  id: adviceScenarioRuns.id, scenarioId: adviceScenarioRuns.scenarioId, userId: adviceScenarioRuns.userId, userName: users.name,
  versionId: adviceScenarioRuns.versionId, versionNumber: versions.number, status: adviceScenarioRuns.status,
  differences: adviceScenarioRuns.differences, actual: adviceScenarioRuns.actual, errorMessage: adviceScenarioRuns.errorMessage,
  ranAt: adviceScenarioRuns.ranAt,
}

/** A run with who ran it and which version it ran against, by name and number. */
export interface ScenarioRunView extends ScenarioRunRow { userName: string | null; versionNumber: number | null }

function runsQuery(db: Db) {
  return db.select(runColumns).from(adviceScenarioRuns)
    .leftJoin(users, eq(users.id, adviceScenarioRuns.userId))
    .leftJoin(versions, eq(versions.id, adviceScenarioRuns.versionId))
}

export type RunInsert = Pick<ScenarioRunRow, 'scenarioId' | 'userId' | 'versionId' | 'status' | 'differences' | 'actual' | 'errorMessage'>

/** One statement for a whole batch; ids come back in the order given. */
export async function insertRuns(db: Db, rows: RunInsert[]): Promise<ScenarioRunRow[]> {
  if (rows.length === 0) return []
  return db.insert(adviceScenarioRuns).values(rows).returning()
}

/** Newest first. */
export async function listRuns(db: Db, scenarioId: number, limit: number): Promise<ScenarioRunView[]> {
  return runsQuery(db).where(eq(adviceScenarioRuns.scenarioId, scenarioId)).orderBy(desc(adviceScenarioRuns.id)).limit(limit)
}

export async function findRun(db: Db, id: number): Promise<ScenarioRunView | undefined> {
  const [row] = await runsQuery(db).where(eq(adviceScenarioRuns.id, id)).limit(1)
  return row
}

/** A scenario as lists show it: its set's name and owner, and its latest run (null when it never ran). */
export interface ScenarioListRow {
  scenario: ScenarioRow
  set: { id: number; name: string; ownerId: string }
  lastRun: {
    id: number; status: ScenarioRunStatus; ranAt: Date; versionId: number | null; versionNumber: number | null; userName: string | null
    differences: ScenarioDifferences | null; errorMessage: string | null
  } | null
}

export interface ListScenariosParams {
  /** Sets the actor may read (SetVisibility); undefined leaves them unfiltered (the caller checked one set). */
  visibility?: SetVisibility
  adviceSetId?: number
  ids?: number[]
  status?: ScenarioStatusFilter
  text?: string
  /** Scenarios this user made, changed or ran. */
  touchedBy?: number
  /** 'recent' orders by the latest of change and run, newest first; default by name. */
  order?: 'name' | 'recent'
  limit: number
  offset?: number
  /** By name only: the scenarios after this one (a keyset page, as deep as the first). */
  afterId?: number
}

function latestRun(db: Db) {
  return db.select({
    id: sql<number>`${adviceScenarioRuns.id}`.as('last_run_id'), status: sql<ScenarioRunStatus>`${adviceScenarioRuns.status}`.as('last_status'),
    ranAt: sql<Date>`${adviceScenarioRuns.ranAt}`.mapWith(adviceScenarioRuns.ranAt).as('last_ran_at'),
    versionId: sql<number | null>`${adviceScenarioRuns.versionId}`.as('last_version_id'), versionNumber: sql<number | null>`${versions.number}`.as('last_version_number'),
    userName: sql<string | null>`${users.name}`.as('last_user_name'),
    differences: sql<ScenarioDifferences | null>`${adviceScenarioRuns.differences}`.mapWith(adviceScenarioRuns.differences).as('last_differences'),
    errorMessage: sql<string | null>`${adviceScenarioRuns.errorMessage}`.as('last_error_message'),
  }).from(adviceScenarioRuns)
    .leftJoin(users, eq(users.id, adviceScenarioRuns.userId))
    .leftJoin(versions, eq(versions.id, adviceScenarioRuns.versionId))
    .where(eq(adviceScenarioRuns.scenarioId, adviceScenarios.id))
    .orderBy(desc(adviceScenarioRuns.id)).limit(1).as('latest')
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/** What a list's filters select (ListScenariosParams without its order and page). */
export type ScenarioListFilter = Omit<ListScenariosParams, 'order' | 'limit' | 'offset' | 'afterId'>

function filterOf(db: Db, p: ScenarioListFilter) {
  const latest = latestRun(db)
  const statusIs: SQL | undefined = p.status === undefined ? undefined
    : p.status === 'notRun' ? isNull(latest.id) : eq(latest.status, p.status)
  // One list of the ids the user made, changed or ran, so each comes from its own index; an OR with a per-row
  // EXISTS read every scenario of the database (151 ms on the big tenant).
  const touched = p.touchedBy === undefined ? undefined : sql`${adviceScenarios.id} in (
    select s.id from ${adviceScenarios} s where s.created_by = ${p.touchedBy}
    union select s.id from ${adviceScenarios} s where s.updated_by = ${p.touchedBy}
    union select r.scenario_id from ${adviceScenarioRuns} r where r.user_id = ${p.touchedBy})`
  const where = and(
    isNull(adviceScenarios.deletedAt), isNull(adviceSets.deletedAt),
    p.visibility ? visibleTo(p.visibility) : undefined,
    p.adviceSetId !== undefined ? eq(adviceScenarios.adviceSetId, p.adviceSetId) : undefined,
    p.ids !== undefined ? inArray(adviceScenarios.id, p.ids.length ? p.ids : [0]) : undefined,
    p.text ? ilike(adviceScenarios.name, `%${escapeLike(p.text)}%`) : undefined,
    statusIs, touched,
  )
  return { latest, statusIs, where }
}

export async function listScenarios(db: Db, p: ListScenariosParams): Promise<ScenarioListRow[]> {
  const { latest, where } = filterOf(db, p)
  const afterRow = p.afterId === undefined ? undefined
    : sql`(lower(${adviceScenarios.name}), ${adviceScenarios.id}) > (select lower(s.name), s.id from ${adviceScenarios} s where s.id = ${p.afterId})`
  const order = p.order === 'recent'
    ? [desc(sql`greatest(${adviceScenarios.updatedAt}, coalesce(${latest.ranAt}, ${adviceScenarios.updatedAt}))`), desc(adviceScenarios.id)]
    : [sql`lower(${adviceScenarios.name})`, adviceScenarios.id]
  const rows = await db.select({
    scenario: adviceScenarios, set: { id: adviceSets.id, name: adviceSets.name, ownerId: adviceSets.ownerId },
    last: {
      id: latest.id, status: latest.status, ranAt: latest.ranAt, versionId: latest.versionId, versionNumber: latest.versionNumber, userName: latest.userName,
      differences: latest.differences, errorMessage: latest.errorMessage,
    },
  }).from(adviceScenarios)
    .innerJoin(adviceSets, eq(adviceSets.id, adviceScenarios.adviceSetId))
    .leftJoinLateral(latest, sql`true`)
    .where(and(where, afterRow)).orderBy(...order).limit(p.limit).offset(p.offset ?? 0)
  return rows.map((r) => ({ scenario: r.scenario, set: r.set, lastRun: r.last.id === null ? null : { ...r.last, id: r.last.id, status: r.last.status, ranAt: r.last.ranAt } }))
}

/** How many scenarios a list's filters select: unfiltered, from the kept counts. */
export async function countScenarioList(db: Db, p: ScenarioListFilter): Promise<number> {
  const unfiltered = p.adviceSetId === undefined && p.ids === undefined && !p.text && p.status === undefined && p.touchedBy === undefined
  if (unfiltered) return keptScenarioTotal(db, p.visibility)
  const { latest, statusIs, where } = filterOf(db, p)
  return countScenarios(db, where, statusIs === undefined ? undefined : latest)
}

async function countScenarios(db: Db, where: SQL | undefined, latest: ReturnType<typeof latestRun> | undefined): Promise<number> {
  // The count joins each scenario's latest run only when a status is asked for: for 200,000 scenarios the join was
  // 217 ms of the index's 290.
  const counted = db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(adviceScenarios)
    .innerJoin(adviceSets, eq(adviceSets.id, adviceScenarios.adviceSetId))
  const [count] = await (latest ? counted.leftJoinLateral(latest, sql`true`) : counted).where(where)
  return count?.n ?? 0
}

/**
 * The unfiltered total from the kept counts (migration 0050), read as the library's keptTotal reads sets
 * (visibleKeptSum); without a visibility, every live scenario. Counting them read a big tenant's 200,000 scenarios:
 * 36 ms against 6 ms at a tenth of the size (bench:scale).
 */
async function keptScenarioTotal(db: Db, visibility: SetVisibility | undefined): Promise<number> {
  const c = ownerScenarioCounts
  const total = visibility ? visibleKeptSum(c, visibility) : sql`sum(${c.live})`
  const [row] = await db.select({ n: sql<number>`coalesce(${total}, 0)`.mapWith(Number) }).from(c)
  return row?.n ?? 0
}

/**
 * Folds the rows that statements added to the kept counts into one per owner. Safe beside writers and other folds:
 * each row is taken away once, by whichever fold deletes it, and its sum added back; rows written after the fold began
 * are left for the next.
 */
export async function foldOwnerScenarioCounts(db: Db): Promise<void> {
  await db.execute(sql`with gone as (delete from owner_scenario_counts returning owner_id, live, shared)
    insert into owner_scenario_counts (owner_id, live, shared)
    select owner_id, sum(live)::int, sum(shared)::int from gone group by owner_id having sum(live) <> 0 or sum(shared) <> 0`)
}

/** How many live scenarios a set has, by their latest run's status. */
export async function countScenariosByStatus(db: Db, adviceSetId: number): Promise<Record<ScenarioStatusFilter, number>> {
  const latest = latestRun(db)
  const rows = await db.select({ status: latest.status, n: sql<number>`count(*)`.mapWith(Number) }).from(adviceScenarios)
    .leftJoinLateral(latest, sql`true`)
    .where(and(eq(adviceScenarios.adviceSetId, adviceSetId), isNull(adviceScenarios.deletedAt)))
    .groupBy(latest.status)
  const counts: Record<ScenarioStatusFilter, number> = { pass: 0, fail: 0, error: 0, notRun: 0 }
  for (const row of rows) counts[row.status ?? 'notRun'] += row.n
  return counts
}
