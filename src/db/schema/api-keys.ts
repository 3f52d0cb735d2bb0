import { sql } from 'drizzle-orm'
import { bigint, boolean, date, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { audiences, owners } from './owners.ts'
import { users } from './users.ts'

export const API_KEY_ENVIRONMENTS = ['production', 'preview'] as const
export type ApiKeyEnvironment = (typeof API_KEY_ENVIRONMENTS)[number]

/**
 * Partner keys for the Advice API. The secret (≥ 128 random bits after a readable prefix) is shown once; only its
 * SHA-256 is stored, so a leaked table cannot be used as keys. `prefix` identifies a key in lists and logs.
 */
export const apiKeys = pgTable('api_keys', {
  id: serial('id').primaryKey(),
  ownerId: text('owner_id').notNull().references(() => owners.id),
  name: text('name').notNull(),
  prefix: text('prefix').notNull(),
  secretHash: text('secret_hash').notNull(),
  environment: text('environment').$type<ApiKeyEnvironment>().notNull().default('production'),
  audienceId: integer('audience_id').references(() => audiences.id),
  /** Empty: every advice set of the owner (and those it may read). */
  allowedAdviceSetIds: integer('allowed_advice_set_ids').array().notNull().default(sql`'{}'::integer[]`),
  /** Origins allowed to embed the interview with this key (frame-ancestors); empty: none. */
  allowedOrigins: text('allowed_origins').array().notNull().default(sql`'{}'::text[]`),
  /** Requests per minute. */
  rateLimit: integer('rate_limit').notNull().default(600),
  /** The embed offers "Didn't find what you need? Ask us" (requests for advice) with this key. */
  adviceRequests: boolean('advice_requests').notNull().default(false),
  /** Requests may ask the Advice API to explain its answer (explain=true): preview keys by default, production keys when allowed. */
  explain: boolean('explain').notNull().default(false),
  createdBy: integer('created_by').references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  /** After a rotation: the hash of the secret it replaced, still accepted until `previousSecretUntil` (the grace chosen). */
  previousSecretHash: text('previous_secret_hash'),
  previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
}, (t) => [
  uniqueIndex('api_keys_secret_hash_idx').on(t.secretHash),
  index('api_keys_previous_secret_hash_idx').on(t.previousSecretHash),
  uniqueIndex('api_keys_prefix_idx').on(t.prefix),
  index('api_keys_owner_idx').on(t.ownerId),
])

/**
 * Usage per key, day and advice set (0: requests that named no valid set), written in batches. Latencies are kept
 * as counts per latency bucket (the bounds live with the metering code) so p50/p99 can be read back without storing every request.
 */
export const apiKeyUsage = pgTable('api_key_usage', {
  keyId: integer('key_id').notNull().references(() => apiKeys.id),
  day: date('day').notNull(),
  adviceSetId: integer('advice_set_id').notNull().default(0),
  requests: bigint('requests', { mode: 'number' }).notNull().default(0),
  errors: bigint('errors', { mode: 'number' }).notNull().default(0),
  latencyBuckets: integer('latency_buckets').array().notNull().default(sql`'{}'::integer[]`),
}, (t) => [primaryKey({ columns: [t.keyId, t.day, t.adviceSetId] })])
