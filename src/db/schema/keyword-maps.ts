// Keyword maps (SPEC §7 keywordmap, DESIGN "Testing advice"): named phrases that lead the global search to an advice
// set, or to one of its scenarios (its answers prefilled). Owner-scoped, managed by admins, soft-deleted.
import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'
import { adviceSets } from './advice-sets.ts'
import { adviceScenarios } from './scenarios.ts'
import { owners } from './owners.ts'
import { users } from './users.ts'

export const keywordMaps = pgTable('keyword_maps', {
  id: serial('id').primaryKey(),
  ownerId: text('owner_id').notNull().references(() => owners.id),
  name: text('name').notNull(),
  /** As written (trimmed, inner spaces collapsed); matched against search text case-insensitively. */
  phrases: text('phrases').array().notNull().default([]),
  adviceSetId: integer('advice_set_id').notNull().references(() => adviceSets.id),
  /** A scenario of the set whose answers the target opens with; null points at the set itself. */
  scenarioId: integer('scenario_id').references(() => adviceScenarios.id),
  createdBy: integer('created_by').references(() => users.id),
  updatedBy: integer('updated_by').references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
}, (t) => [
  index('keyword_maps_owner_idx').on(t.ownerId, t.deletedAt),
  index('keyword_maps_set_idx').on(t.adviceSetId),
  index('keyword_maps_scenario_idx').on(t.scenarioId),
])
