import { boolean, date, index, integer, json, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { recordedOutcomeColumn } from './decision-outcome.ts'

export type { RecordedError, RecordedItem, RecordedOutcome } from './decision-outcome.ts'

/** Which runs an owner's answers leave a record of (issue 26): none, buffered (the default), or committed before the answer. */
export const DECISION_MODES = ['off', 'best_effort', 'durable'] as const
export type DecisionMode = (typeof DECISION_MODES)[number]

/** A stored mode as a DecisionMode: one written by hand that is none of them counts as the default. */
export function decisionModeOf(stored: string | undefined): DecisionMode {
  return (DECISION_MODES as readonly string[]).includes(stored ?? '') ? stored as DecisionMode : 'best_effort'
}

/**
 * A decision record: one answer of the Advice API (API, legacy, embed). The table is partitioned by month of
 * received_at (the migration says so; drizzle does not); retention drops whole months. The id is a UUIDv7, so it is
 * time-ordered and tells when it was made: a lookup by id reads the primary key around that moment, so no index on
 * the id alone is kept. Personal inputs are stored only as keyed hashes (personal_hashes) and
 * appear in `inputs` as {"personal": true}.
 */
export const decisionRecords = pgTable('decision_records', {
  id: uuid('id').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  ownerId: text('owner_id').notNull(),
  adviceSetId: integer('advice_set_id').notNull(),
  versionId: integer('version_id').notNull(),
  versionNumber: integer('version_number').notNull(),
  apiKeyId: integer('api_key_id').notNull(),
  environment: text('environment').notNull(),
  /** api, legacy or embed. */
  endpoint: text('endpoint').notNull(),
  contentType: text('content_type').notNull(),
  /** The inputs as the engine used them (after coercion), canonical JSON: json keeps the text as written. */
  inputs: json('inputs').$type<Record<string, unknown>>().notNull(),
  personalHashes: text('personal_hashes').array().notNull().default(sql`'{}'::text[]`),
  /** complete, question (the run stopped at a question) or pending (an external API had not answered). */
  status: text('status').notNull(),
  adviceNodeIds: text('advice_node_ids').array().notNull().default(sql`'{}'::text[]`),
  hasErrors: boolean('has_errors').notNull().default(false),
  outcome: recordedOutcomeColumn('outcome').notNull(),
  engineMicros: integer('engine_micros').notNull(),
}, (t) => [
  primaryKey({ columns: [t.receivedAt, t.id] }),
  // Ascending, though lists read newest first (backwards): new records then land at the right edge of their set's
  // range and fill its pages, where a descending index split pages to half full (91 bytes a record against 45).
  index('decision_records_set_idx').on(t.adviceSetId, t.receivedAt, t.id),
  // Answers with errors are rare: "with errors" would read a set's whole index to fill a page (240 ms at a million
  // records on PostgreSQL); this one holds only them.
  index('decision_records_errors_idx').on(t.adviceSetId, t.receivedAt, t.id).where(sql`has_errors`),
  // Most records hold no personal value: only those that do are in this index.
  // Both GIN indexes without a pending list (fastupdate): entries go straight into the compressed posting lists, so the
  // advice index costs 3 bytes a record instead of 26, and no insert ever pays for merging a 4 MB list (PGlite, which has
  // no autovacuum to merge it in the background, would pay for that on the thread serving requests).
  index('decision_records_personal_idx').using('gin', t.personalHashes).with({ fastupdate: false }).where(sql`personal_hashes <> '{}'::text[]`),
  index('decision_records_advice_idx').using('gin', t.adviceNodeIds).with({ fastupdate: false }),
])

/**
 * Answers per set and UTC day, in all (node_id '') and per advice item given: what the set's page charts, kept by
 * triggers on decision_records (migration 0033) as records are written and deleted, so the page reads a few rows a
 * day instead of every record of the last 30 days (150 ms for a set answering 3,000 times a day). Retention deletes
 * the days of the partitions it drops.
 */
export const decisionCounts = pgTable('decision_counts', {
  adviceSetId: integer('advice_set_id').notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  nodeId: text('node_id').notNull(),
  /**
   * Which of a key's rows a statement adds to (migration 0051): 1 to 8, each statement the next in turn. Durable group
   * commits run side by side on PostgreSQL, and all of a set's commits of a day upsert its day total; on one row each
   * waited for the one before to commit. Readers sum a key's rows; the fold moves the days before today's into
   * stripe 0, which no statement writes.
   */
  stripe: smallint('stripe').notNull().default(0),
  count: integer('count').notNull(),
}, (t) => [
  primaryKey({ columns: [t.adviceSetId, t.day, t.nodeId, t.stripe] }),
  // The rows the fold takes (today's, and an erasure's of past days): the fold reads these, never the whole table.
  index('decision_counts_unfolded_idx').on(t.day).where(sql`stripe <> 0`),
])
