import { pgTable, text, timestamp, bigserial, integer, jsonb, index, pgEnum } from 'drizzle-orm/pg-core'

export const auditAction = pgEnum('audit_action', ['create', 'update', 'restore', 'delete'])
export const auditSource = pgEnum('audit_source', ['server', 'users'])
export type AuditAction = (typeof auditAction.enumValues)[number]
export type AuditSource = (typeof auditSource.enumValues)[number]

/** The audit log. One row per change, written in the same transaction as the change (SPEC §3 audit constants). */
export const activity = pgTable('activity', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  ownerId: text('owner_id').notNull(),
  /** Null for changes the server makes on its own (source `server`). */
  actorId: integer('actor_id'),
  /** The provider admin acting through impersonation, if any. */
  impersonatorId: integer('impersonator_id'),
  source: auditSource('source').notNull(),
  action: auditAction('action').notNull(),
  entityType: text('entity_type').notNull(),
  entityId: text('entity_id').notNull(),
  before: jsonb('before'),
  after: jsonb('after'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('activity_owner_time_idx').on(t.ownerId, t.createdAt),
  index('activity_entity_idx').on(t.entityType, t.entityId),
])
