import { pgTable, text, timestamp, serial, integer, jsonb, uniqueIndex, index, pgEnum } from 'drizzle-orm/pg-core'
import { owners } from './owners.ts'

export const userRole = pgEnum('user_role', ['admin', 'author', 'viewer'])
export type UserRole = (typeof userRole.enumValues)[number]

/**
 * Where a person stands in their team: `invited` until they set a password from the set-up link; `deactivated` by an
 * admin (cannot sign in, their content stays, reactivation brings them back); `cancelled` when an admin withdrew a
 * pending invitation (the address can be invited again, which reuses the row).
 */
export const userStatus = pgEnum('user_status', ['active', 'invited', 'deactivated', 'cancelled'])
export type UserStatus = (typeof userStatus.enumValues)[number]

export interface UserPreferences {
  tz?: string
}

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  ownerId: text('owner_id').notNull().references(() => owners.id),
  /** Stored lower-cased; unique across the whole product. */
  email: text('email').notNull(),
  name: text('name').notNull(),
  title: text('title').notNull().default(''),
  role: userRole('role').notNull().default('author'),
  /** Null until an invited user sets a password. */
  passwordHash: text('password_hash'),
  status: userStatus('status').notNull().default('active'),
  preferences: jsonb('preferences').$type<UserPreferences>().notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('users_email_idx').on(t.email),
  index('users_owner_idx').on(t.ownerId),
  // The team page's keyset order: a page of a team of thousands reads its own rows.
  index('users_owner_name_idx').on(t.ownerId, t.name, t.id),
])

export const passwordTokenPurpose = pgEnum('password_token_purpose', ['reset', 'setup'])

/** Reset links and invitations. Only a SHA-256 of the token is stored; single use; 1 h expiry. */
export const passwordTokens = pgTable('password_tokens', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  purpose: passwordTokenPurpose('purpose').notNull(),
  tokenHash: text('token_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('password_tokens_hash_idx').on(t.tokenHash)])
