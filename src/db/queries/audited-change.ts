// A change and its audit as one statement. PostgreSQL runs a statement's data-modifying WITH clauses together and
// atomically, so no transaction is needed: on the embedded database, whose one connection every writer waits for, the
// change holds it for one round trip instead of BEGIN, the statements and COMMIT, each a turn of the serving thread
// away from the next (bench:soak).
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { activityInsert, type InsertActivityParams } from './activity.ts'
import { adviceSetUpdatedMark, type SetUpdatedMark } from './advice-sets.ts'
import { rowsOf } from './rule-nodes.ts'
import { indexTaskInsert, indexTaskNotify } from './search.ts'

/** What services/audit/audit.ts writes for a change: its activity row, and, as the entity requires, the rest. */
export interface AuditRows {
  activity: InsertActivityParams
  indexTask: { entityType: string; entityId: string } | null
  setUpdated: SetUpdatedMark | null
}

/** Runs `change` (an INSERT, UPDATE or DELETE, without RETURNING) with its audit rows; returns how many rows it changed. */
export async function changeWithAudit(db: Db, change: SQLWrapper, rows: AuditRows): Promise<number> {
  // getSQL(): a query builder put in a template as it is comes in parentheses, which a WITH clause's statement may not.
  const clauses: SQL[] = [sql`changed AS (${change.getSQL()} RETURNING 1)`, sql`logged AS (${activityInsert(db, rows.activity).getSQL()})`]
  if (rows.indexTask) clauses.push(sql`task AS (${indexTaskInsert(rows.indexTask.entityType, rows.indexTask.entityId)})`)
  if (rows.setUpdated) clauses.push(sql`marked AS (${adviceSetUpdatedMark(db, rows.setUpdated).getSQL()})`)
  // A WITH clause that only reads runs only if the statement reads it: the NOTIFY is read here.
  const notified = rows.indexTask ? sql`, (SELECT count(*) FROM (${indexTaskNotify(sql`task`)}) AS notified) AS notified` : sql``
  const result = await db.execute(sql`WITH ${sql.join(clauses, sql`, `)} SELECT (SELECT count(*) FROM changed)::int AS changed${notified}`)
  return Number(rowsOf(result)[0]?.changed ?? 0)
}
