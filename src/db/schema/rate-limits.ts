import { integer, pgTable, text, timestamp, index } from 'drizzle-orm/pg-core'

/**
 * Request counters shared by every app instance on one PostgreSQL (services/delivery/rate-limit.ts): one row per
 * bucket (an API key, a visitor of an embed, an account or address signing in) holding its current window, which
 * starts at the bucket's first request after the previous window ended (by the database's clock, so instances whose
 * clocks differ agree). Instances lease requests from it a few at a time (count), or count one by one.
 * The migration creates it UNLOGGED: counters need no crash safety, and skipping the WAL keeps each count cheap.
 */
export const rateWindows = pgTable('rate_windows', {
  bucket: text('bucket').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  /** Requests counted (or leased) in this window. */
  count: integer('count').notNull(),
  /** What the last lease added to count (read back by the instance that took it). */
  granted: integer('granted').notNull().default(0),
}, (t) => [index('rate_windows_started_idx').on(t.startedAt)])
