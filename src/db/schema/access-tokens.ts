import { sql } from 'drizzle-orm'
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { users } from './users.ts'

/** What a personal access token may do: read sets as files (`export`) or write them (`import`). */
export const ACCESS_TOKEN_SCOPES = ['export', 'import'] as const
export type AccessTokenScope = (typeof ACCESS_TOKEN_SCOPES)[number]

/**
 * Personal access tokens (issue 28): a person's own credential for the command-line tool, acting as that person on
 * the routes that declare a scope. As for API keys, the secret (≥ 128 random bits after a readable prefix) is shown
 * once and only its SHA-256 is stored; `prefix` identifies a token in lists and in the activity log. Revoked tokens
 * stay (revoked_at set) so the log keeps naming them.
 */
export const personalAccessTokens = pgTable('personal_access_tokens', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  scopes: text('scopes').array().$type<AccessTokenScope[]>().notNull().default(sql`'{}'::text[]`),
  prefix: text('prefix').notNull(),
  secretHash: text('secret_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  /** Null: never expires. */
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
}, (t) => [
  uniqueIndex('personal_access_tokens_secret_hash_idx').on(t.secretHash),
  uniqueIndex('personal_access_tokens_prefix_idx').on(t.prefix),
  index('personal_access_tokens_user_idx').on(t.userId),
])
