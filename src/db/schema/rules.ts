import { sql } from 'drizzle-orm'
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core'
import { adviceSets } from './advice-sets.ts'
import { owners } from './owners.ts'
import { users } from './users.ts'

/**
 * A new rule's or node's key: 16 random hex digits. Volatile, so adding the column gave every existing row its own
 * key, and any insert that names no key (a new rule or node, a copy) gets a fresh one.
 */
export const NEW_KEY = sql`substr(md5(random()::text || clock_timestamp()::text), 1, 16)`

/**
 * Positions: live siblings (rules of one advice set; nodes with one parent in one rule) are numbered 0..n-1 without
 * gaps. A partial unique index on (container, position) among live rows makes an inconsistent order impossible to
 * store; every reorder locks the container row (advice set or rule) and renumbers the whole sibling list in one
 * transaction, so concurrent moves are serialised instead of interleaved. Deleted rows keep their last position as
 * the place to come back to on recover.
 */
export const rules = pgTable('rules', {
  id: serial('id').primaryKey(),
  adviceSetId: integer('advice_set_id').notNull().references(() => adviceSets.id),
  /**
   * The rule's identity across versions and in exported files (names need not be unique in a set): kept while the
   * rule lives, carried in published snapshots, new for a copy. Unique among the live rules of a set.
   */
  key: text('key').notNull().default(NEW_KEY),
  name: text('name').notNull(),
  position: integer('position').notNull(),
  /** Skipped when the set runs its rules in order: the rule runs only through a Rule Call (engine RuleModel). */
  onlyWhenCalled: boolean('only_when_called').notNull().default(false),
  createdBy: integer('created_by').references(() => users.id),
  updatedBy: integer('updated_by').references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
}, (t) => [
  index('rules_advice_set_idx').on(t.adviceSetId),
  uniqueIndex('rules_live_position_idx').on(t.adviceSetId, t.position).where(sql`deleted_at is null`),
  uniqueIndex('rules_live_key_idx').on(t.adviceSetId, t.key).where(sql`deleted_at is null`),
  // The deleted rules (what can be restored from the activity log): few among a big tenant's.
  index('rules_deleted_idx').on(t.id).where(sql`deleted_at is not null`),
])

export interface NodeSource { id: string; name: string; uri?: string }


/** A node of a rule tree; which content fields matter depends on `type` (engine NodeModel). */
export const ruleNodes = pgTable('rule_nodes', {
  id: serial('id').primaryKey(),
  ruleId: integer('rule_id').notNull().references(() => rules.id),
  /**
   * The node's identity across versions: kept while the node lives (edits, moves, restores), carried in published
   * snapshots, new for a copy. Unique among the live nodes of an advice set; the index holds it per rule.
   */
  key: text('key').notNull().default(NEW_KEY),
  parentId: integer('parent_id').references((): AnyPgColumn => ruleNodes.id),
  position: integer('position').notNull(),
  /** An engine node type key (condition, inputRequest, advice, ...). */
  type: text('type').notNull(),
  expression: text('expression'),
  variable: text('variable'),
  headline: text('headline'),
  text: text('text'),
  question: text('question'),
  calledRuleId: integer('called_rule_id').references((): AnyPgColumn => rules.id),
  /** External API reference of an API Call node. */
  apiId: text('api_id'),
  /** Tag slugs: assumption, example, collapse, follow-on, needs-work. */
  tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
  sources: jsonb('sources').$type<NodeSource[]>().notNull().default([]),
  createdBy: integer('created_by').references(() => users.id),
  updatedBy: integer('updated_by').references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** A deleted subtree shares one timestamp, so recover brings back exactly what that delete took away. */
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  /**
   * The dictionary names the node refers to (`variable:X`, `formula:X`, `bare:X`; authoring/node-references.ts), so
   * that where an entry is used is found by this index instead of by reading and parsing every node. Trusted only
   * while refHash is the hash of the fields they were read from (rule_node_ref_hash, migration 0041): a write that does not refresh
   * them (an edit, a copy, an import) leaves the node stale, never wrong, until they are filled in again.
   */
  refKeys: text('ref_keys').array(),
  refHash: text('ref_hash'),
}, (t) => [
  index('rule_nodes_rule_idx').on(t.ruleId),
  index('rule_nodes_parent_idx').on(t.parentId),
  index('rule_nodes_called_rule_idx').on(t.calledRuleId),
  // The questions of an owner's sets (the export page and its export): few among a big tenant's nodes, found here
  // instead of by reading every node of every rule.
  index('rule_nodes_questions_idx').on(t.ruleId).where(sql`type = 'inputRequest' and deleted_at is null`),
  uniqueIndex('rule_nodes_live_position_idx').on(t.ruleId, sql`coalesce(parent_id, 0)`, t.position).where(sql`deleted_at is null`),
  uniqueIndex('rule_nodes_live_key_idx').on(t.ruleId, t.key).where(sql`deleted_at is null`),
  index('rule_nodes_ref_keys_idx').using('gin', t.refKeys),
  // The nodes whose names are to be read again: few once filled in, all of them after the upgrade that added them.
  index('rule_nodes_refs_stale_idx').on(t.id).where(sql`ref_hash is distinct from rule_node_ref_hash(type, expression, variable, headline, text, question)`),
  // The deleted nodes (what can be restored under a rule or node): few among a big tenant's 2,000,000.
  index('rule_nodes_deleted_idx').on(t.id).where(sql`deleted_at is not null`),
  // The calls of an external API (before its edit or delete): few among a big tenant's nodes.
  index('rule_nodes_api_idx').on(t.apiId).where(sql`api_id is not null`),
])

/**
 * How many live, trusted nodes of an owner's live rules and sets refer to each dictionary target (`variable:X` or
 * `formula:X`; a bare name counts for both), so that a big team's dictionary reads one row per entry instead of
 * counting the nodes (migration 0042). Kept by statement triggers on rule_nodes, rules and advice_sets; stale nodes
 * are not in it (readers parse them), and the filler's fill adds them. No foreign key, like owner_set_counts.
 */
export const nodeReferenceCounts = pgTable('node_reference_counts', {
  target: text('target').notNull(),
  ownerId: text('owner_id').notNull(),
  uses: integer('uses').notNull(),
}, (t) => [primaryKey({ columns: [t.target, t.ownerId] })])

/**
 * The dictionary: variables ({{Name}}, entity type 12) and formulas ([[Name]], entity type 5) of an owner, optionally
 * limited to one advice set. Names compare without case. An owner-wide name is unique in the owner; a name limited to
 * a set is unique in that set, so a copy of the set can bring its own entries under the same names. The services keep
 * a set's names from clashing with owner-wide ones (authoring/entities.ts assertNameFree), so a set sees each name once.
 */
export const entities = pgTable('entities', {
  id: serial('id').primaryKey(),
  ownerId: text('owner_id').notNull().references(() => owners.id),
  adviceSetId: integer('advice_set_id').references(() => adviceSets.id),
  entityTypeId: integer('entity_type_id').notNull(),
  reservedName: text('reserved_name').notNull(),
  dataType: text('data_type'),
  validOptions: jsonb('valid_options').$type<string[]>().notNull().default([]),
  isClosedSet: boolean('is_closed_set').notNull().default(false),
  displayFormat: text('display_format'),
  defaultValue: jsonb('default_value'),
  /** Formulas: the expression that computes them. */
  expression: text('expression'),
  isConstant: boolean('is_constant').notNull().default(false),
  /** Personal data: its values are kept in decision records only as keyed hashes (issue 26). */
  personal: boolean('personal').notNull().default(false),
  description: text('description').notNull().default(''),
  createdBy: integer('created_by').references(() => users.id),
  updatedBy: integer('updated_by').references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
}, (t) => [
  uniqueIndex('entities_owner_name_idx').on(t.ownerId, sql`lower(reserved_name)`).where(sql`deleted_at is null and advice_set_id is null`),
  uniqueIndex('entities_set_name_idx').on(t.adviceSetId, sql`lower(reserved_name)`).where(sql`deleted_at is null and advice_set_id is not null`),
  index('entities_advice_set_idx').on(t.adviceSetId),
  // An owner's live entries in the dictionary's order, those limited to a set too.
  index('entities_owner_live_idx').on(t.ownerId, sql`lower(reserved_name)`, t.id).where(sql`deleted_at is null`),
])

/** Authors' comments on a rule node. */
export const comments = pgTable('comments', {
  id: serial('id').primaryKey(),
  ruleNodeId: integer('rule_node_id').notNull().references(() => ruleNodes.id),
  userId: integer('user_id').references(() => users.id),
  body: text('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
}, (t) => [index('comments_node_idx').on(t.ruleNodeId)])
