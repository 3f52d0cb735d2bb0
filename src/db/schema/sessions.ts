import { pgTable, text, timestamp, integer, jsonb, index } from 'drizzle-orm/pg-core'
import { users } from './users.ts'

/** @fastify/session store. user_id is copied out of the data so all of a user's sessions can be ended at once. */
export const sessions = pgTable('sessions', {
  sid: text('sid').primaryKey(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
}, (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)])
