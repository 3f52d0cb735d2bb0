import { sql, type SQL } from 'drizzle-orm'
import { rowTokensSql } from '../../search/filter-tokens.ts'
import { bigserial, boolean, customType, index, integer, pgTable, text, timestamp, jsonb } from 'drizzle-orm/pg-core'

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })

/**
 * The embedded search index (PostgreSQL full-text). One row per searchable object; `hit` is the SPEC §3 search hit
 * as served. The *_terms columns hold the folded words (lower case, no accents) the tsvector and the typo lexicon are
 * built from, so the query side folds text exactly the same way.
 */
export const searchDocuments = pgTable('search_documents', {
  objectId: text('object_id').primaryKey(),
  entityTypeId: integer('entity_type_id').notNull(),
  entityTypeName: text('entity_type_name').notNull(),
  ownerId: text('owner_id').notNull(),
  ownerName: text('owner_name').notNull(),
  adviceSetId: integer('advice_set_id'),
  isPublic: boolean('is_public').notNull(),
  isStarter: boolean('is_starter').notNull(),
  tags: text('tags').array().notNull(),
  hit: jsonb('hit').notNull(),
  nameTerms: text('name_terms').notNull(),
  nameAltTerms: text('name_alt_terms').notNull(),
  textTerms: text('text_terms').notNull(),
  /** The one- to six-letter beginnings of those words, as tokens (prefix-tokens.ts). */
  prefixTerms: text('prefix_terms').notNull().default(''),
  // Weights: A name, B name_alt, C any other text. Ranking asks for A/B matches first. The owner, type and flags
  // are in it too, as tokens no typed word can match: filters on them are index conditions (filter-tokens.ts); and
  // so are short beginnings of the words, one posting list each (prefix-tokens.ts).
  search: tsvector('search').notNull().generatedAlwaysAs((): SQL => sql`setweight(to_tsvector('simple', ${searchDocuments.nameTerms}), 'A') || setweight(to_tsvector('simple', ${searchDocuments.nameAltTerms}), 'B') || setweight(to_tsvector('simple', ${searchDocuments.textTerms}), 'C') || ${rowTokensSql} || array_to_tsvector(array_remove(string_to_array(${searchDocuments.prefixTerms}, ' '), ''))`),
  /** Name and name_alt alone: the first ranking tier, with statistics of its own for the planner. */
  nameSearch: tsvector('name_search').notNull().generatedAlwaysAs((): SQL => sql`setweight(to_tsvector('simple', ${searchDocuments.nameTerms}), 'A') || setweight(to_tsvector('simple', ${searchDocuments.nameAltTerms}), 'B')`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  /**
   * When the row was last written (clock_timestamp() at the write): a rebuild writes every live document again and
   * then removes those it did not write, so search keeps answering while it runs.
   */
  indexedAt: timestamp('indexed_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  // No fastupdate: PGlite runs no autovacuum, so a pending list would only grow and be scanned by every search.
  // updated_at (btree_gin) first: a broad word's candidates are first looked for among the newest documents, and
  // with both in one index, their range narrows the word's posting lists as it is read (postgres-statement.ts).
  index('search_documents_recent_search_idx').using('gin', t.updatedAt, t.search).with({ fastupdate: 'off' }),
  index('search_documents_name_search_idx').using('gin', t.nameSearch).with({ fastupdate: 'off' }),
  index('search_documents_updated_idx').on(t.updatedAt),
  index('search_documents_owner_idx').on(t.ownerId),
])

/**
 * Every folded word ever indexed: one-typo candidates come from here, looked up one by one (a word's one-edit
 * variants: equal terms, or terms they begin, through the byte-order index) or, for words of other letters, by
 * pattern through the trigram index.
 */
export const searchTerms = pgTable('search_terms', {
  term: text('term').primaryKey(),
}, (t) => [
  index('search_terms_trgm_idx').using('gin', t.term.op('gin_trgm_ops')).with({ fastupdate: 'off' }),
  index('search_terms_prefix_idx').on(t.term.op('text_pattern_ops')),
])

/**
 * Outbox of index work: written in the transaction of every change to a searchable entity, applied after commit,
 * deleted only once applied. Rows left behind (a crash, an index that was down) are applied at the next start.
 */
export const searchIndexTasks = pgTable('search_index_tasks', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  entityType: text('entity_type').notNull(),
  entityId: text('entity_id').notNull(),
  attempts: integer('attempts').notNull().default(0),
  runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
  lastError: text('last_error'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('search_index_tasks_run_after_idx').on(t.runAfter)])
