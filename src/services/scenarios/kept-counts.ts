// Housekeeping for the kept scenario counts (migration 0050). Each statement that changes them adds a row, so that
// scenario writers never wait for one another; folding those rows every minute keeps the total's read (the index of
// every set's scenarios) to about one row per owner.
import { foldOwnerScenarioCounts } from '../../db/queries/scenarios.ts'
import type { Deps } from '../context.ts'

export const SCENARIO_COUNTS_FOLD_INTERVAL_MS = 60 * 1000

export async function foldScenarioCounts(deps: Deps): Promise<void> {
  await foldOwnerScenarioCounts(deps.db)
}
