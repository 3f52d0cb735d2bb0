import { sql } from 'drizzle-orm'
import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { adviceSets } from './advice-sets.ts'
import { audiences } from './owners.ts'
import { users } from './users.ts'

/** DESIGN "Publishing": draft → review → approved → published; review → draft; approved/review → preview; published → unpublished. */
export const VERSION_STATES = ['draft', 'review', 'approved', 'published', 'preview', 'unpublished'] as const
export type VersionState = (typeof VERSION_STATES)[number]

/** A version approved by the person who submitted it: the owner's setting that allowed it, as it was then. */
export interface SelfApproval {
  allowedBy: number | null
  allowedByName: string
  /** ISO date-time the setting was turned on. */
  allowedAt: string
}

/**
 * An immutable snapshot of an advice set as the engine runs it (rules, nodes, the dictionary entries it uses, rules
 * of other sets it calls), numbered per set. Only the state and its bookkeeping change after creation. At most one
 * published and one preview version per set, enforced by partial unique indexes.
 */
export const versions = pgTable('versions', {
  id: serial('id').primaryKey(),
  adviceSetId: integer('advice_set_id').notNull().references(() => adviceSets.id),
  number: integer('number').notNull(),
  state: text('state').$type<VersionState>().notNull().default('draft'),
  notes: text('notes').notNull().default(''),
  /** The engine's AdviceSetModel plus set metadata, exactly as published. */
  snapshot: jsonb('snapshot').notNull(),
  /** SHA-256 of the canonical snapshot JSON: equal hashes mean equal content. */
  contentHash: text('content_hash').notNull(),
  createdBy: integer('created_by').references(() => users.id),
  submittedBy: integer('submitted_by').references(() => users.id),
  submittedAt: timestamp('submitted_at', { withTimezone: true }),
  approvedBy: integer('approved_by').references(() => users.id),
  approvedAt: timestamp('approved_at', { withTimezone: true }),
  /** Set when its submitter approved it (the owner allows self-approval); null after four-eyes approval. */
  selfApproval: jsonb('self_approval').$type<SelfApproval>(),
  publishedBy: integer('published_by').references(() => users.id),
  publishedAt: timestamp('published_at', { withTimezone: true }),
  unpublishedAt: timestamp('unpublished_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('versions_set_number_idx').on(t.adviceSetId, t.number),
  uniqueIndex('versions_one_published_idx').on(t.adviceSetId).where(sql`state = 'published'`),
  uniqueIndex('versions_one_preview_idx').on(t.adviceSetId).where(sql`state = 'preview'`),
])

/** publish/assign: which version of a set an audience's keys get instead of the published one. */
export const versionAssignments = pgTable('version_assignments', {
  adviceSetId: integer('advice_set_id').notNull().references(() => adviceSets.id),
  audienceId: integer('audience_id').notNull().references(() => audiences.id),
  versionId: integer('version_id').notNull().references(() => versions.id),
  assignedBy: integer('assigned_by').references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  primaryKey({ columns: [t.adviceSetId, t.audienceId] }),
  index('version_assignments_version_idx').on(t.versionId),
])
