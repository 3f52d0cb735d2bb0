// Advice scenarios (DESIGN "Testing advice"): saved answers plus the outcome they must give, and every run of them.
import { sql } from 'drizzle-orm'
import { date, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'
import { adviceSets } from './advice-sets.ts'
import { users } from './users.ts'
import { versions } from './publishing.ts'

/**
 * What a scenario must give: the advice items that appear (node ids, any group: advice, assumptions, examples), the
 * final current focus (an input request's node id, or 'complete' when nothing is left to ask), and the values of the
 * variables the author chose (raw, as an API caller would write them).
 */
export interface ExpectedOutcome {
  advice: string[]
  focus: string
  variables: Record<string, unknown>
}

/** What a run gave, in the terms of ExpectedOutcome; `variables` holds the expected ones only. */
export interface ActualOutcome extends ExpectedOutcome {
  /** Rules that could not finish (incomplete advice): shown with the run, not compared. */
  errors: Array<{ nodeId: string; code: string; message: string }>
}

/** Where a run's outcome differed from the expected one; all empty when it passed. */
export interface ScenarioDifferences {
  missingAdvice: string[]
  unexpectedAdvice: string[]
  focus: { expected: string; actual: string } | null
  variables: Array<{ name: string; expected: unknown; actual: unknown }>
}

/**
 * A recorded answer of an external API that a scenario's runs use instead of calling it (issue 17: repeatable runs).
 * `body` is the parsed JSON answer.
 */
export interface PinnedApiResponse {
  status: number
  body: unknown
}

export const SCENARIO_RUN_STATUSES = ['pass', 'fail', 'error'] as const
export type ScenarioRunStatus = (typeof SCENARIO_RUN_STATUSES)[number]

/** A scenario belongs to an advice set and so to its owner; deleting it only marks it, restore brings it back. */
export const adviceScenarios = pgTable('advice_scenarios', {
  id: serial('id').primaryKey(),
  adviceSetId: integer('advice_set_id').notNull().references(() => adviceSets.id),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  /** Answers by variable name, as an API caller sends them. */
  inputs: jsonb('inputs').$type<Record<string, unknown>>().notNull().default({}),
  /** The run's "now" (YYYY-MM-DD, midnight UTC); null runs as of the moment of the run. */
  runAsOf: date('run_as_of', { mode: 'string' }),
  expected: jsonb('expected').$type<ExpectedOutcome>().notNull(),
  /** Recorded answers by external API id (as text); calls of APIs not pinned here go out live. */
  pinnedResponses: jsonb('pinned_responses').$type<Record<string, PinnedApiResponse>>().notNull().default({}),
  createdBy: integer('created_by').references(() => users.id),
  updatedBy: integer('updated_by').references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
}, (t) => [
  index('advice_scenarios_set_idx').on(t.adviceSetId, t.deletedAt),
  // The index of every set's scenarios (advicescenario/index) is by name: a page of a big tenant walks this instead
  // of sorting its 200,000 scenarios (103 ms), and its word filter reads the matching names by trigram.
  index('advice_scenarios_name_idx').on(sql`lower(${t.name})`, t.id).where(sql`deleted_at is null`),
  index('advice_scenarios_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
  // advicescenario/recent: the scenarios a user made or changed last (and ran: advice_scenario_runs_user_idx).
  index('advice_scenarios_created_by_idx').on(t.createdBy),
  index('advice_scenarios_updated_by_idx').on(t.updatedBy),
])

/**
 * A row per set (migration 0050), made with it, that orders the kept scenario counts' writers: a statement writing
 * scenarios takes its sets' rows FOR SHARE, a change of a set's liveness, sharing or owner takes the set's row FOR
 * UPDATE, so the two wait for each other and each counts what the other left (the trigger's comment says how). Not the
 * set's own row: every rule edit updates that one, and would wait for scenario writers holding it.
 */
export const setScenarioLocks = pgTable('set_scenario_locks', {
  adviceSetId: integer('advice_set_id').primaryKey(),
})

/**
 * Each owner's live scenarios in live sets, and how many of them are in shared sets (public or starter), for the
 * unfiltered total of advicescenario/index (migration 0050), as changes: every statement that changes them adds a row
 * (never updates one), so that writers never wait for one another and a transaction of many statements costs each the
 * same. The rows are folded into one per owner every minute (services/scenarios/kept-counts.ts); the total is their
 * sum. No foreign key, as owner_set_counts.
 */
export const ownerScenarioCounts = pgTable('owner_scenario_counts', {
  ownerId: text('owner_id').notNull(),
  live: integer('live').notNull(),
  shared: integer('shared').notNull(),
})

/** One run of one scenario. A scenario's status is its latest run's; the rows are its run history. */
export const adviceScenarioRuns = pgTable('advice_scenario_runs', {
  id: serial('id').primaryKey(),
  scenarioId: integer('scenario_id').notNull().references(() => adviceScenarios.id),
  /** Who ran it; null when the server did. */
  userId: integer('user_id').references(() => users.id),
  /** The version it ran against; null for the working draft. */
  versionId: integer('version_id').references(() => versions.id),
  status: text('status').$type<ScenarioRunStatus>().notNull(),
  differences: jsonb('differences').$type<ScenarioDifferences>(),
  actual: jsonb('actual').$type<ActualOutcome>(),
  /** Why the scenario could not run (status error). */
  errorMessage: text('error_message'),
  ranAt: timestamp('ran_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('advice_scenario_runs_scenario_idx').on(t.scenarioId, t.id),
  index('advice_scenario_runs_user_idx').on(t.userId, t.ranAt),
])
