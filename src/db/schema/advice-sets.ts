import { sql } from 'drizzle-orm'
import { pgTable, text, timestamp, serial, integer, boolean, index, pgEnum, primaryKey, uniqueIndex } from 'drizzle-orm/pg-core'
import { owners } from './owners.ts'
import { users } from './users.ts'

/** SPEC §3 "Advice Category (collection of advice sets)". */
export const adviceCategories = pgTable('advice_categories', {
  id: serial('id').primaryKey(),
  ownerId: text('owner_id').notNull().references(() => owners.id),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
}, (t) => [index('advice_categories_owner_idx').on(t.ownerId)])

export const adviceSets = pgTable('advice_sets', {
  id: serial('id').primaryKey(),
  ownerId: text('owner_id').notNull().references(() => owners.id),
  categoryId: integer('category_id').references(() => adviceCategories.id),
  name: text('name').notNull(),
  /** The name shown to partners and in search results (SPEC §2 "name_alt for advice sets"). */
  nameAlt: text('name_alt').notNull().default(''),
  description: text('description').notNull().default(''),
  isPublic: boolean('is_public').notNull().default(false),
  isStarter: boolean('is_starter').notNull().default(false),
  createdBy: integer('created_by').references(() => users.id),
  updatedBy: integer('updated_by').references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
}, (t) => [
  index('advice_sets_owner_idx').on(t.ownerId, t.deletedAt),
  index('advice_sets_category_idx').on(t.categoryId),
  index('advice_sets_updated_idx').on(t.updatedAt),
  // The library's other orders (by name, newest first), so a page of a big tenant reads its own rows only.
  index('advice_sets_name_idx').on(sql`lower(${t.name})`, t.id),
  index('advice_sets_created_idx').on(t.createdAt, t.id),
  // The library's word filter is a substring match on either name (ILIKE '%word%'); trigrams let the page's count
  // read the matching sets only, not every set of a big tenant (bench:scale: 32 ms → 3 ms at 50,000 sets).
  index('advice_sets_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops'), t.nameAlt.op('gin_trgm_ops')),
  // Explore's shared sets (public or starter) are a few of a big tenant's; the list and its count read them alone
  // (queries/advice-sets.ts writes the condition as this predicate, so the planner can prove it).
  index('advice_sets_shared_idx').on(t.updatedAt).where(sql`deleted_at is null and (is_public or is_starter)`),
])

export const tagType = pgEnum('tag_type', ['advice_group', 'advice_type', 'label'])

/** SPEC §3 tags. Provider tags (owner TF) are shared by everyone; owners may add their own. */
export const tags = pgTable('tags', {
  id: serial('id').primaryKey(),
  ownerId: text('owner_id').notNull().references(() => owners.id),
  slug: text('slug').notNull(),
  label: text('label').notNull(),
  type: tagType('type').notNull().default('label'),
  description: text('description').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
}, (t) => [uniqueIndex('tags_owner_slug_idx').on(t.ownerId, t.slug)])

/** A tag on an advice set (and, later, on rules and rule nodes). */
export const tagLinks = pgTable('tag_links', {
  tagId: integer('tag_id').notNull().references(() => tags.id),
  entityType: text('entity_type').notNull(),
  entityId: integer('entity_id').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  primaryKey({ columns: [t.tagId, t.entityType, t.entityId] }),
  index('tag_links_entity_idx').on(t.entityType, t.entityId),
])

/**
 * How many live advice sets carry each tag, for the tags admin (migration 0035): kept by triggers as links come and
 * go and as sets are deleted, restored or removed, so the page reads one row per tag instead of counting every link.
 */
export const tagUseCounts = pgTable('tag_use_counts', {
  tagId: integer('tag_id').primaryKey().references(() => tags.id, { onDelete: 'cascade' }),
  adviceSets: integer('advice_sets').notNull(),
})

/**
 * Each owner's live advice sets, and how many of them are shared (public or starter), for the library's unfiltered
 * total (migration 0037): kept by a trigger as sets are created, deleted, restored, removed, shared or transferred, so
 * the total reads one row per owner instead of counting a big tenant's sets. No foreign key: the trigger counts for
 * whatever owner a set names, and a row may outlive its owner.
 */
export const ownerSetCounts = pgTable('owner_set_counts', {
  ownerId: text('owner_id').primaryKey(),
  live: integer('live').notNull(),
  shared: integer('shared').notNull(),
})

/** What a user opened lately (SPEC §7 recentitem). */
export const recentItems = pgTable('recent_items', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  entityType: text('entity_type').notNull(),
  entityId: integer('entity_id').notNull(),
  viewedAt: timestamp('viewed_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('recent_items_user_entity_idx').on(t.userId, t.entityType, t.entityId),
  index('recent_items_user_time_idx').on(t.userId, t.viewedAt),
])
