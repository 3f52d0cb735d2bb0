// The embedded database's socket directories: each start removes those a killed process left, and no other.
import t from 'tap'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { makeSocketDir } from '../../../src/db/embedded-server/socket-dir.ts'

const temp = mkdtempSync(path.join(os.tmpdir(), 'socket-dir-test-'))
const systemTemp = process.env.TMPDIR
process.env.TMPDIR = temp
t.teardown(() => {
  if (systemTemp === undefined) delete process.env.TMPDIR
  else process.env.TMPDIR = systemTemp
  rmSync(temp, { recursive: true, force: true })
})

function leftBehind(name: string, owner?: number): string {
  const dir = path.join(temp, name)
  mkdirSync(dir)
  writeFileSync(path.join(dir, '.s.PGSQL.5432'), '')
  if (owner !== undefined) writeFileSync(path.join(dir, 'owner.pid'), String(owner))
  return dir
}

t.test('a start removes the directories of ended processes and keeps the others', async (t) => {
  const ended = spawnSync(process.execPath, ['-e', '0']).pid
  const killed = leftBehind('advice-db-killed', ended)
  const running = leftBehind('advice-db-running', process.pid)
  const older = leftBehind('advice-db-older')
  const unrelated = leftBehind('someone-else', ended)

  const made = makeSocketDir()
  t.notOk(existsSync(killed), 'the ended process’s directory is gone')
  t.ok(existsSync(running), 'a running process’s stays')
  t.ok(existsSync(older), 'one without an owner (an older release’s) stays')
  t.ok(existsSync(unrelated), 'other directories are not touched')
  t.equal(path.dirname(made), temp)
  t.match(path.basename(made), /^advice-db-/)
  t.equal(readFileSync(path.join(made, 'owner.pid'), 'utf8'), String(process.pid), 'the new one names its owner')
  t.ok(existsSync(made))
})
