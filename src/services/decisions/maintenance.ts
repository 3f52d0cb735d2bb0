// Keeps the decision records' monthly partitions: this month's and the next are made ahead of time, and months older
// than every owner's retention are dropped whole; an owner whose retention is shorter has its older records deleted.
// The set page's counts of the days before today are folded into one row a key.
import type { Db } from '../../db/client.ts'
import { deleteDecisionsBefore, dropMonthPartitionsBefore, ensureMonthPartition, foldDecisionCounts } from '../../db/queries/decisions.ts'
import { owners } from '../../db/schema/index.ts'

const DAY_MS = 24 * 60 * 60 * 1000

/** The first moment (UTC) of `date`'s month, `offset` months on: where a partition of decision records begins. */
export function monthStart(date: Date, offset = 0): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1))
}

export async function ensureDecisionPartitions(db: Db, now: Date): Promise<void> {
  await ensureMonthPartition(db, monthStart(now))
  await ensureMonthPartition(db, monthStart(now, 1))
}

export interface RetentionReport { droppedPartitions: string[]; deletedRecords: number }

export async function applyDecisionRetention(db: Db, now: Date): Promise<RetentionReport> {
  const rows = await db.select({ id: owners.id, days: owners.decisionRetentionDays }).from(owners)
  let deletedRecords = 0
  for (const owner of rows) deletedRecords += await deleteDecisionsBefore(db, owner.id, new Date(now.getTime() - owner.days * DAY_MS))
  const longest = Math.max(0, ...rows.map((owner) => owner.days))
  const droppedPartitions = await dropMonthPartitionsBefore(db, new Date(now.getTime() - longest * DAY_MS))
  return { droppedPartitions, deletedRecords }
}

/** The counts' rows the fold took away (queries/decisions.ts, foldDecisionCounts): the days before today's (UTC). */
export function foldPastDecisionCounts(db: Db, now: Date): Promise<number> {
  return foldDecisionCounts(db, now.toISOString().slice(0, 10))
}
