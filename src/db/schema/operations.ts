import { bigserial, date, index, integer, pgEnum, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'
import { adviceSets } from './advice-sets.ts'
import { rules } from './rules.ts'
import { users } from './users.ts'
import { apiKeys } from './api-keys.ts'

export const adviceRequestStatus = pgEnum('advice_request_status', ['open', 'planned', 'answered'])
export type AdviceRequestStatus = (typeof adviceRequestStatus.enumValues)[number]

/**
 * Requests for advice (SPEC §3 "AI user request"): a question end users typed in the embed ("Didn't find what you
 * need? Ask us") or an author recorded, per advice set; answered ones link the rule that answers them.
 */
export const adviceRequests = pgTable('advice_requests', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  adviceSetId: integer('advice_set_id').notNull().references(() => adviceSets.id),
  text: text('text').notNull(),
  status: adviceRequestStatus('status').notNull().default('open'),
  answeredByRuleId: integer('answered_by_rule_id').references(() => rules.id),
  /** `embed` (an end user, through a key) or `author`. */
  source: text('source').$type<'embed' | 'author'>().notNull(),
  apiKeyId: integer('api_key_id').references(() => apiKeys.id),
  createdBy: integer('created_by').references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
}, (t) => [index('advice_requests_set_idx').on(t.adviceSetId, t.createdAt)])

/**
 * Interview analytics (SPEC §7 google-analytics/getEvents, answered from our own data): events of the embed and
 * the Advice API counted in memory and added here in batches, per set, UTC day, event and question (the variable
 * asked for; '' for events about the whole interview).
 */
export const interviewEventCounts = pgTable('interview_event_counts', {
  adviceSetId: integer('advice_set_id').notNull(),
  day: date('day').notNull(),
  event: text('event').notNull(),
  question: text('question').notNull().default(''),
  count: integer('count').notNull().default(0),
}, (t) => [primaryKey({ columns: [t.adviceSetId, t.day, t.event, t.question] })])
