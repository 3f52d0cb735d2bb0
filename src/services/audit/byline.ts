// Who made a logged change, said the same way everywhere (activity pages, the dashboard, a version's history, the
// API): under impersonation both people are named — "Ada Admin as Aaron A. Author" — as the impersonation banner
// promises. (The impersonation entries' own sentences, "Ada Admin started impersonating …", are in activity-sentences.ts.)

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
