// The worker thread that owns the embedded database: PGlite, its upkeep (checkpoints and vacuum), and the bridge that
// serves it on a local socket (bridge.ts). Any error PGlite throws leaves it unusable, so the thread then ends with it
// and the host (host.ts) reports the crash.
import { parentPort, workerData } from 'node:worker_threads'
import { createPglite } from '../pglite-client.ts'
import { startEmbeddedUpkeep } from '../embedded-upkeep.ts'
import { copyDecisionRecords } from '../queries/decision-copy.ts'
import { serveOverSocket } from './bridge.ts'
import type { WorkerMessage, WorkerOptions } from './messages.ts'

const options = workerData as WorkerOptions
const port = parentPort!
const tell = (message: WorkerMessage) => port.postMessage(message)

const client = await createPglite({ dataDir: options.dataDir })
const bridge = await serveOverSocket(client, options.socketPath, (err) => {
  tell({ type: 'failed', message: err instanceof Error ? err.stack ?? err.message : String(err) })
  process.exit(1)
})
const stopUpkeep = startEmbeddedUpkeep(client, { runWhenIdle: (task) => bridge.whenIdle(task, { countAsBusy: false }), busyMs: bridge.busyMs })
port.on('message', (message: WorkerMessage) => {
  if (message.type === 'decisions') {
    // Between the connection's transactions, or the COPY would join (and wait on) whichever is open.
    bridge.whenIdle(() => copyDecisionRecords(client, message.encoded)).then(
      () => tell({ type: 'written', id: message.id }),
      (err: unknown) => tell({ type: 'written', id: message.id, error: err instanceof Error ? err.message : String(err) }),
    )
  }
  if (message.type === 'close') {
    stopUpkeep()
    void bridge.close().then(() => client.close()).then(() => port.close())
  }
})
tell({ type: 'ready' })
