// Every job kind the app runs, registered on the app's queue at start-up (README "Adding a job kind").
import type { Deps } from '../context.ts'
import { registerReindexJob } from '../search.ts'
import { registerRunAllJob } from '../scenarios/run-all-job.ts'
import { registerGenerateJob } from '../scenarios/branches.ts'
import { registerCompareJob } from '../scenarios/branch-compare.ts'
import { registerExportJob } from './export.ts'
import { registerDecisionExportJob } from '../decisions/export.ts'
import { registerReplayJob } from '../publishing/replay-gate.ts'

export function registerJobKinds(deps: Deps): void {
  registerReindexJob(deps)
  registerRunAllJob(deps)
  registerGenerateJob(deps)
  registerCompareJob(deps)
  registerExportJob(deps)
  registerDecisionExportJob(deps)
  registerReplayJob(deps)
}
