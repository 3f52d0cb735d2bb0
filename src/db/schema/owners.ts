import { boolean, integer, pgTable, text, timestamp, serial, index } from 'drizzle-orm/pg-core'

/** An account. The provider owner has id `TF` (SPEC §3). */
export const owners = pgTable('owners', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /**
   * Publishing: an admin may approve a version they submitted themselves (a team of one can publish). Off by default:
   * four-eyes approval. Set by an admin of the owner (or a provider admin); each version approved that way records it.
   */
  selfApprovalAllowed: boolean('self_approval_allowed').notNull().default(false),
  /** Who last changed selfApprovalAllowed and when (a user id: users reference owners, so no key back). */
  selfApprovalChangedBy: integer('self_approval_changed_by'),
  selfApprovalChangedAt: timestamp('self_approval_changed_at', { withTimezone: true }),
  /** Decision records (issue 26): off, best_effort (buffered, the default) or durable (committed before the answer). */
  decisionMode: text('decision_mode').notNull().default('best_effort'),
  /** Days a decision record is kept. */
  decisionRetentionDays: integer('decision_retention_days').notNull().default(365),
  /** Records the best-effort buffer had to drop, ever, and when it last did: shown to the owner's admins. */
  decisionsDropped: integer('decisions_dropped').notNull().default(0),
  decisionsDroppedAt: timestamp('decisions_dropped_at', { withTimezone: true }),
})

/** Groups of partners an owner publishes to (SPEC §7 owner {id}/audience). */
export const audiences = pgTable('audiences', {
  id: serial('id').primaryKey(),
  ownerId: text('owner_id').notNull().references(() => owners.id),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('audiences_owner_idx').on(t.ownerId)])
