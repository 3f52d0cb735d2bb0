// Who made a logged change, said the same way everywhere (activity pages, the dashboard, a version's history, the
// API): under impersonation both people are named — "Ada Admin as Aaron A. Author" — as the impersonation banner
// promises. Also the sentences of the impersonation entries themselves ("Ada Admin started impersonating …").

export const ENTITY_IMPERSONATION = 'impersonation'

/** What the log rows carry about who acted (db/queries/activity.ts BY_WHOM). */
export interface ByWhom {
  actorName: string | null
  impersonatorId: number | null
  impersonatorName: string | null
}

/** The server's own changes (seeding, expiry jobs) have no person behind them. */
const SERVER_NAME = 'Advice Studio'

/** The provider admin behind a change made under impersonation, or null. */
export function impersonatorOf(row: ByWhom): { id: number; name: string } | null {
  return row.impersonatorId === null ? null : { id: row.impersonatorId, name: row.impersonatorName ?? `user #${row.impersonatorId}` }
}

/** "Aaron A. Author", or "Ada Admin as Aaron A. Author" under impersonation, or the server's name. */
export function bylineOf(row: ByWhom): string {
  const actor = row.actorName ?? SERVER_NAME
  const impersonator = impersonatorOf(row)
  return impersonator ? `${impersonator.name} as ${actor}` : actor
}

/**
 * An impersonation's start (create) or end (delete) as a sentence: the actor is the provider admin, the snapshot
 * names the person impersonated. Null for every other entry.
 */
export function impersonationSentence(row: ByWhom & { entityType: string; action: string; before: unknown; after: unknown }): string | null {
  if (row.entityType !== ENTITY_IMPERSONATION) return null
  const target = (row.after ?? row.before) as { name?: unknown } | null
  const whom = typeof target?.name === 'string' ? target.name : 'a user'
  return `${row.actorName ?? SERVER_NAME} ${row.action === 'delete' ? 'stopped' : 'started'} impersonating ${whom}`
}
