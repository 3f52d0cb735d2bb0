// The server side of bench:files, in its own process so its memory is measured alone: the app on embedded PGlite with
// the disk file store in a temporary DATA_DIR, one signed-in author, and its RSS sampled every 10 ms. It tells the
// parent (over IPC) where it listens and how to act as the author; asked for `memory`, it answers the baseline and peak.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { buildApp } from '../../src/app.ts'
import { openDatabase } from '../../src/db/client.ts'
import { createUser } from '../../test/helpers/factories.ts'
import { Agent } from '../../test/helpers/agent.ts'

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'advice-studio-bench-files-'))
const database = await openDatabase({ kind: 'pglite' })
await database.migrate()
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-01' })
const app = await buildApp({ config, db: database.db, logger: false })
await app.listen({ port: 0, host: '127.0.0.1' })
const address = app.server.address()
const port = typeof address === 'object' && address ? address.port : 0

const user = await createUser(database.db, { role: 'author' })
const agent = new Agent(app)
await agent.signIn(user.email, user.password)

let baseline = process.memoryUsage().rss
let peak = baseline
setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss) }, 10).unref()

process.on('message', async (message: { type: string }) => {
  if (message.type === 'baseline') {
    globalThis.gc?.()
    baseline = process.memoryUsage().rss
    peak = baseline
    process.send!({ type: 'baseline', rss: baseline })
  } else if (message.type === 'memory') {
    process.send!({ type: 'memory', baseline, peak, files: path.join(dataDir, 'files') })
  } else if (message.type === 'stop') {
    await app.close()
    await database.close()
    rmSync(dataDir, { recursive: true, force: true })
    process.exit(0)
  }
})
process.send!({ type: 'ready', url: `http://127.0.0.1:${port}`, cookie: agent.cookieHeader, csrfToken: agent.csrfToken })
