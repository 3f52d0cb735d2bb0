// Every job kind the app runs, registered on the app's queue at start-up (README "Adding a job kind").
import type { Deps } from '../context.ts'
import { registerReindexJob } from '../search.ts'
import { registerExportJob } from './export.ts'

export function registerJobKinds(deps: Deps): void {
  registerReindexJob(deps)
  registerExportJob(deps)
}
