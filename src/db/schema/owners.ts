import { pgTable, text, timestamp, serial, index } from 'drizzle-orm/pg-core'

/** An account. The provider owner has id `TF` (SPEC §3). */
export const owners = pgTable('owners', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/** Groups of partners an owner publishes to (SPEC §7 owner {id}/audience). */
export const audiences = pgTable('audiences', {
  id: serial('id').primaryKey(),
  ownerId: text('owner_id').notNull().references(() => owners.id),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('audiences_owner_idx').on(t.ownerId)])
