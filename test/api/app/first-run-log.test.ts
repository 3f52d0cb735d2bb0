// Issue 22 finding 6: the first run's demo passwords are printed once on the terminal, in plain text, and never
// written into the structured (JSON) log. The app is started as `npm start` starts it, on a fresh embedded database.
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { testDriver } from '../../helpers/database.ts'
import { startAppProcess } from '../../helpers/app-process.ts'

if (testDriver() === 'postgres') {
  t.plan(0, 'the first run is tested on the embedded database (the demo logins are made there); PostgreSQL adds nothing here')
} else {
  // A fresh embedded database is created and migrated in the child: minutes on a busy machine.
  t.setTimeout(300_000)
  t.test('the demo passwords are on the terminal once and nowhere in the JSON log', async (t) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'advice-studio-first-run-'))
    const app = await startAppProcess({ dataDir, env: { LOG_LEVEL: 'info', DATABASE_URL: '' }, timeoutMs: 240_000 })
    t.teardown(async () => {
      await app.kill()
      rmSync(dataDir, { recursive: true, force: true })
    })
    // Closed normally, so the log (written asynchronously) has all it was given.
    await app.stop()
    const output = app.output()
    const logins = [...output.matchAll(/^ {2}(\S+@\S+) {2}(studio-\S+) {3}\((\w+), ([^)]+)\)$/gm)].map((m) => ({ email: m[1]!, password: m[2]! }))
    t.equal(logins.length, 2, 'the admin and the demo author, printed under "Sign in with:"')
    t.match(output, /Sign in with:\n(?: {2}.+\n){2}These passwords are shown only now\./)

    const jsonLines = output.split('\n').filter((line) => line.startsWith('{'))
    t.ok(jsonLines.length > 0, 'the structured log was written')
    for (const { email, password } of logins) {
      t.equal(output.split(password).length - 1, 1, `${email}: its password appears once`)
      t.notOk(jsonLines.some((line) => line.includes(password)), `${email}: its password is in no log line`)
    }
    t.ok(jsonLines.some((line) => JSON.parse(line).msg?.startsWith('first-run logins created')), 'the log records that the logins were made')
  })
}
