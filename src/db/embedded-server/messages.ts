// What the embedded database's host and its worker thread say to each other.
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
  /**
   * From the host: write these decision records, a JSON array of encoded ones (one COPY, one commit); answered with
   * `written` and the same id. One string crosses to the thread as a copy of its bytes, where the rows as objects were
   * cloned one by one on the thread serving HTTP.
   */
  | { type: 'decisions'; id: number; encoded: string }
  | { type: 'written'; id: number; error?: string }
