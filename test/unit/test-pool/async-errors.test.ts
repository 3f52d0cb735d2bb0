// npm test loads test/helpers/without-async-domains.ts into every test process, which stops tap from charging an error
// thrown outside a test's awaits to that test. Such errors must still fail their file: here a file with a throw in a
// timer and one with a forgotten rejection, run as the pool runs them, each fail with their message, while a clean
// file passes.
import t from 'tap'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const PRELOAD = pathToFileURL(path.join(import.meta.dirname, '../../helpers/without-async-domains.js')).href
const TAP = import.meta.resolve('tap')
const dir = mkdtempSync(path.join(os.tmpdir(), 'async-errors-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

function run(body: string): Promise<{ code: number; output: string }> {
  const file = path.join(dir, `case-${Math.random().toString(36).slice(2)}.mjs`)
  writeFileSync(file, `import t from ${JSON.stringify(TAP)}\n${body}\n`)
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', PRELOAD, file], (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr })
    })
  })
}

const pause = 'await new Promise((resolve) => setTimeout(resolve, 30))'

t.test('the preload is in place: compiled beside this test', async (t) => {
  const clean = await run(`t.test('fine', async (t) => { ${pause}; t.ok(true) })`)
  t.equal(clean.code, 0, clean.output)
  t.match(clean.output, /# \{ total: 1, pass: 1 \}|# pass 1|ok 1 - fine/)
})

t.test('a throw in a timer fails the file with its message', async (t) => {
  const res = await run(`t.test('throws later', async (t) => { setTimeout(() => { throw new Error('boom in a timer') }, 1); ${pause}; t.ok(true) })`)
  t.not(res.code, 0)
  t.match(res.output, /boom in a timer/)
})

t.test('a forgotten rejection fails the file with its message', async (t) => {
  const res = await run(`t.test('forgets', async (t) => { Promise.reject(new Error('rejected and forgotten')); ${pause}; t.ok(true) })`)
  t.not(res.code, 0)
  t.match(res.output, /rejected and forgotten/)
})
