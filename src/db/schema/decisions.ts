import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'

/** Which runs an owner's answers leave a record of (issue 26): none, buffered (the default), or committed before the answer. */
export const DECISION_MODES = ['off', 'best_effort', 'durable'] as const
export type DecisionMode = (typeof DECISION_MODES)[number]

/** One advice item of a recorded answer: what was given, and the conditions that held on the way to it. */
export interface RecordedItem {
  nodeId: string
  group: 'advice' | 'assumptions' | 'examples'
  /** Only when Headline_Custom replaced the version's headline; otherwise the version's node says it. */
  customHeadline?: string
  /** Condition node ids from the rule root to the item (and through the Rule Call that reached it), in order. */
  path: string[]
}

export interface RecordedOutcome {
  items: RecordedItem[]
  errors: Array<{ nodeId: string; code: string; message: string; variable?: string }>
  /** The question asked next, when the run stopped at one. */
  question?: { nodeId: string; variable: string; path: string[] }
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
  /** The inputs as the engine used them (after coercion), canonical JSON. */
  inputs: jsonb('inputs').$type<Record<string, unknown>>().notNull(),
  personalHashes: text('personal_hashes').array().notNull().default(sql`'{}'::text[]`),
  /** complete, question (the run stopped at a question) or pending (an external API had not answered). */
  status: text('status').notNull(),
  adviceNodeIds: text('advice_node_ids').array().notNull().default(sql`'{}'::text[]`),
  hasErrors: boolean('has_errors').notNull().default(false),
  outcome: jsonb('outcome').$type<RecordedOutcome>().notNull(),
  engineMicros: integer('engine_micros').notNull(),
}, (t) => [
  primaryKey({ columns: [t.receivedAt, t.id] }),
  index('decision_records_set_idx').on(t.adviceSetId, t.receivedAt.desc(), t.id.desc()),
  // Most records hold no personal value: only those that do are in this index.
  index('decision_records_personal_idx').using('gin', t.personalHashes).where(sql`personal_hashes <> '{}'::text[]`),
  index('decision_records_advice_idx').using('gin', t.adviceNodeIds),
])
