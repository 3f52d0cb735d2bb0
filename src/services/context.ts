// What every service call receives: its dependencies and who is acting.
import type { Db } from '../db/client.ts'
import type { Mailer } from './accounts/mailer.ts'
import type { UserRole } from '../db/schema/index.ts'
import type { Config } from '../config.ts'
import type { JobQueue } from '../jobs/queue.ts'
import type { Outbound } from '../net/index.ts'
import type { FileStore } from '../files/index.ts'

export type { UserRole }

export interface Deps {
  db: Db
  mailer: Mailer
  config: Config
  /** The durable job queue (src/jobs): register kinds at start-up, enqueue from services. */
  jobs: JobQueue
  /** Every outbound HTTP request (external APIs, OpenGraph) goes through it: src/net. */
  outbound: Outbound
  /** Where uploaded files live (src/files). */
  files: FileStore
}

export interface Actor {
  userId: number
  ownerId: string
  role: UserRole
  /** The provider admin behind an impersonated session. */
  impersonatorId: number | null
}

export const PROVIDER_OWNER_ID = 'TF'

export function isProviderAdmin(actor: Actor): boolean {
  return actor.ownerId === PROVIDER_OWNER_ID && actor.role === 'admin'
}
