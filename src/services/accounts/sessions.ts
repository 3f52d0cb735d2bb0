// Housekeeping for the session table: expired rows are removed so it does not grow without bound.
import { deleteExpiredSessions } from '../../db/queries/sessions.ts'
import type { Deps } from '../context.ts'

export const SESSION_SWEEP_INTERVAL_MS = 60 * 60 * 1000

export async function sweepExpiredSessions(deps: Deps): Promise<void> {
  await deleteExpiredSessions(deps.db, new Date())
}
