import { bigint, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { owners } from './owners.ts'
import { users } from './users.ts'

/** SPEC §3 supplement formats: how the supplement is held. */
export const SUPPLEMENT_FORMATS = ['buffer', 'file', 'image', 'link', 'viz'] as const
export type SupplementFormat = (typeof SUPPLEMENT_FORMATS)[number]
/** SPEC §3 supplement sources: where the bytes are (our own disk store, S3) or whose service a link points to. */
export const SUPPLEMENT_SOURCES = ['google', 'tf', 'S3'] as const
export type SupplementSource = (typeof SUPPLEMENT_SOURCES)[number]
/** SPEC §3 supplement types: the role a supplement plays in advice. */
export const SUPPLEMENT_TYPES = ['actionButton', 'adviceSource', 'referenceDoc', 'dataApiSource'] as const
export type SupplementType = (typeof SUPPLEMENT_TYPES)[number]
/** What a supplement can be linked to (SPEC §7 supplements {id}/link). */
export const SUPPLEMENT_TARGETS = ['ruleNode', 'adviceSet'] as const
export type SupplementTarget = (typeof SUPPLEMENT_TARGETS)[number]

/**
 * An uploaded file, or a link, of an owner: images and documents (the media library), HTML visualizations, links.
 * The row is written only once the file store holds the bytes under `storageKey`; the bytes are never changed
 * afterwards (a thumbnail is kept beside them), so a key always names the same content.
 */
export const supplements = pgTable('supplements', {
  id: serial('id').primaryKey(),
  ownerId: text('owner_id').notNull().references(() => owners.id),
  name: text('name').notNull(),
  type: text('type').$type<SupplementType>().notNull().default('adviceSource'),
  format: text('format').$type<SupplementFormat>().notNull(),
  source: text('source').$type<SupplementSource>(),
  /** From the file's bytes, never its name; `text/uri-list` for links. */
  contentType: text('content_type').notNull(),
  fileExt: text('file_ext').notNull().default(''),
  size: bigint('size', { mode: 'number' }).notNull().default(0),
  /** The file's key in the file store; null for links. */
  storageKey: text('storage_key'),
  /** Links: the page linked to, and an image for it (from its OpenGraph data or typed by the author). */
  url: text('url'),
  imageUrl: text('image_url'),
  description: text('description').notNull().default(''),
  /** A random capability: who has it may open the file without signing in (a source shown to a partner's users). */
  accessToken: text('access_token').notNull(),
  createdBy: integer('created_by').references(() => users.id),
  updatedBy: integer('updated_by').references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
}, (t) => [
  index('supplements_owner_idx').on(t.ownerId, t.deletedAt),
  uniqueIndex('supplements_storage_key_idx').on(t.storageKey),
])

/**
 * A supplement linked to a rule node (it becomes one of the node's sources in advice) or to an advice set. The link
 * is the one record of it: the engine model joins it when it is built, so a published version keeps what was linked
 * when it was published.
 */
export const supplementLinks = pgTable('supplement_links', {
  id: serial('id').primaryKey(),
  supplementId: integer('supplement_id').notNull().references(() => supplements.id),
  targetType: text('target_type').$type<SupplementTarget>().notNull(),
  targetId: integer('target_id').notNull(),
  createdBy: integer('created_by').references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('supplement_links_unique_idx').on(t.supplementId, t.targetType, t.targetId),
  index('supplement_links_target_idx').on(t.targetType, t.targetId),
])
