// The directory of the embedded database's socket: one per start, under the system's temporary directory, named
// advice-db-* and holding the process id that made it. A process killed outright (SIGKILL, a power cut) cannot remove its
// own, so each start removes those whose process has gone.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const PREFIX = 'advice-db-'
const OWNER_FILE = 'owner.pid'

/** A fresh socket directory, after removing those left by processes that no longer run. */
export function makeSocketDir(): string {
  removeAbandonedSocketDirs()
  const dir = mkdtempSync(path.join(os.tmpdir(), PREFIX))
  writeFileSync(path.join(dir, OWNER_FILE), String(process.pid))
  return dir
}

/** Socket directories whose owner's process has ended. One without an owner file (an older release's) is left alone. */
export function removeAbandonedSocketDirs(): void {
  for (const name of readdirSync(os.tmpdir())) {
    if (!name.startsWith(PREFIX)) continue
    const dir = path.join(os.tmpdir(), name)
    const pid = ownerOf(dir)
    if (pid !== undefined && !isRunning(pid)) rmSync(dir, { recursive: true, force: true })
  }
}

function ownerOf(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dir, OWNER_FILE), 'utf8'))
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}
