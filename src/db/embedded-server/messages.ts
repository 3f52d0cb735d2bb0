// What the embedded database's host and its worker thread say to each other.
import type { NewDecisionRecord } from '../queries/decisions.ts'

export interface WorkerOptions {
  /** None: in memory (benches). */
  dataDir?: string
  socketPath: string
  /** Source runs only: the worker's .ts file, which tsx-worker.mjs loads. */
  typescriptEntry?: string
}

export type WorkerMessage =
  | { type: 'ready' }
  /** PGlite threw: the database is unusable and the worker is ending. */
  | { type: 'failed'; message: string }
  /** From the host: close the database and end. */
  | { type: 'close' }
  /** From the host: write these decision records (one COPY, one commit); answered with `written` and the same id. */
  | { type: 'decisions'; id: number; rows: NewDecisionRecord[] }
  | { type: 'written'; id: number; error?: string }
