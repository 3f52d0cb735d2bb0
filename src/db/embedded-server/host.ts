// Starts the embedded database on a worker thread of its own (worker.ts) and hands back where to reach it: a socket in a
// directory only this user can open. The thread serving HTTP then spends no time on SQL, which on PGlite runs wherever
// PGlite lives (bench:soak: authors' writes had held the Advice API to 3 % of its speed).
import { rmSync } from 'node:fs'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import type { WorkerMessage, WorkerOptions } from './messages.ts'
import { makeSocketDir } from './socket-dir.ts'

/** The port in the socket's name, as postgres.js names a socket in a directory: `.s.PGSQL.<port>`. */
export const EMBEDDED_SOCKET_PORT = 5432

export interface EmbeddedServer {
  /** The directory holding the socket (postgres.js's `host`), with EMBEDDED_SOCKET_PORT as its port. */
  socketDir: string
  /** The thread itself (a test ends it to see a crash handled). */
  worker: Worker
  /** Writes decision records (a JSON array of encoded ones) on the worker's side, in one COPY; settles once they are committed. */
  copyDecisionRecords(encoded: string): Promise<void>
  /** Closes the database and ends the thread. */
  stop(): Promise<void>
}

/** How to start worker.ts beside this file: compiled (.test-build/*.js, in tests) directly, its source through tsx. */
function workerEntry(): { file: URL; typescriptEntry?: string } {
  const extension = path.extname(new URL(import.meta.url).pathname)
  const worker = new URL(`./worker${extension}`, import.meta.url)
  return extension === '.ts' ? { file: new URL('./tsx-worker.mjs', import.meta.url), typescriptEntry: worker.href } : { file: worker }
}

/**
 * `onCrash` is called once if the thread ends without being asked to (PGlite failed, or the thread could not start
 * after it had); by then every query waiting on the database fails.
 */
export async function startEmbeddedServer(dataDir: string | undefined, onCrash: (reason: Error) => void): Promise<EmbeddedServer> {
  // A fresh directory per start: the socket's path stays short (sockets allow ~100 bytes) whatever DATA_DIR is.
  const socketDir = makeSocketDir()
  const { file, typescriptEntry } = workerEntry()
  const workerData: WorkerOptions = { dataDir, socketPath: path.join(socketDir, `.s.PGSQL.${EMBEDDED_SOCKET_PORT}`), typescriptEntry }
  const worker = new Worker(file, { workerData })
  let stopping = false
  let failure = ''
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve))
  const started = new Promise<void>((resolve, reject) => {
    const onMessage = (message: WorkerMessage) => {
      if (message.type === 'failed') failure = message.message
      if (message.type === 'ready') { worker.off('error', reject); resolve() }
    }
    worker.on('message', onMessage)
    worker.once('error', reject)
    void exited.then((code) => reject(new Error(`the embedded database stopped while starting (exit code ${code})${failure ? `: ${failure}` : ''}`)))
  })
  try {
    await started
  } catch (err) {
    rmSync(socketDir, { recursive: true, force: true })
    throw err
  }
  worker.on('error', (err) => { failure ||= err.stack ?? err.message })
  const writes = new Map<number, { resolve: () => void; reject: (err: Error) => void }>()
  let nextWrite = 0
  worker.on('message', (message: WorkerMessage) => {
    if (message.type !== 'written') return
    const write = writes.get(message.id)
    writes.delete(message.id)
    if (message.error === undefined) write?.resolve()
    else write?.reject(new Error(`decision records not written: ${message.error}`))
  })
  let ended = false
  void exited.then((code) => {
    ended = true
    for (const write of writes.values()) write.reject(new Error('the embedded database stopped before the records were written'))
    writes.clear()
    rmSync(socketDir, { recursive: true, force: true })
    if (!stopping) onCrash(new Error(`the embedded database stopped unexpectedly (exit code ${code})${failure ? `: ${failure}` : ''}`))
  })
  return {
    socketDir,
    worker,
    copyDecisionRecords: (encoded) => new Promise<void>((resolve, reject) => {
      if (ended) { reject(new Error('the embedded database has stopped')); return }
      const id = nextWrite++
      writes.set(id, { resolve, reject })
      worker.postMessage({ type: 'decisions', id, encoded } satisfies WorkerMessage)
    }),
    stop: async () => {
      stopping = true
      worker.postMessage({ type: 'close' } satisfies WorkerMessage)
      await exited
    },
  }
}
