import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'
import { owners } from './owners.ts'
import { users } from './users.ts'

/** A request header of a definition. A secret's value is stored sealed (AES-256-GCM under SECRET_KEY), never in clear. */
export interface StoredHeader { name: string; value: string; secret: boolean }

/** Where a variable's value is found in the JSON answer (a JSON pointer `/a/0/b` or a path `a[0].b`), and its data type. */
export interface ResponseMappingEntry { path: string; variable: string; dataType: string }

/**
 * External API definitions (issue 17), owner-scoped and soft-deleted. API Call nodes name one by its id (as text,
 * rule_nodes.api_id). Templates hold `{{Var}}` placeholders filled from the run's values.
 */
export const externalApis = pgTable('external_apis', {
  id: serial('id').primaryKey(),
  ownerId: text('owner_id').notNull().references(() => owners.id),
  name: text('name').notNull(),
  method: text('method').notNull().default('GET'),
  urlTemplate: text('url_template').notNull(),
  headers: jsonb('headers').$type<StoredHeader[]>().notNull().default([]),
  bodyTemplate: text('body_template').notNull().default(''),
  timeoutMs: integer('timeout_ms').notNull().default(5000),
  responseMapping: jsonb('response_mapping').$type<ResponseMappingEntry[]>().notNull().default([]),
  cacheTtlSeconds: integer('cache_ttl_seconds').notNull().default(300),
  sampleResponse: text('sample_response').notNull().default(''),
  createdBy: integer('created_by').references(() => users.id),
  updatedBy: integer('updated_by').references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
}, (t) => [index('external_apis_owner_idx').on(t.ownerId)])
