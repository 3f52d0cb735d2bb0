// Runs test files as plain node processes, a few at a time, and reads each one's TAP summary.
//
// Why not `tap`'s runner: it starts every file with two module hooks of its own (@tapjs/processinfo, which records
// each loaded module and its source map for coverage and --changed, and @tapjs/mock), and on Node 20 hooks run on a
// separate thread that every module load waits on. Measured on this machine, importing the app took ~9.5 s of CPU
// under tap's hooks and ~6.5 s under tsx alone; with about 300 test processes per `npm test`, the hooks were a
// fifth of the suite's CPU. Each file still imports `tap` and prints TAP, so `npx tap file.test.ts` works as before.
import { spawn } from 'node:child_process'
import os from 'node:os'

export interface FileResult {
  file: string
  /** The suite the file ran in (one pool can run several: each file with its suite's environment). */
  suite: string
  passed: number
  failed: number
  skipped: number
  ms: number
  /** The file's whole output, kept for files that failed. */
  output: string
}

/** A test file's closing line, e.g. `# { total: 12, pass: 10, fail: 1, skip: 1 }`. */
const SUMMARY = /^# \{ (total: \d+(?:, \w+: \d+)*) \}$/m

function countsOf(summary: string): Record<string, number> {
  return Object.fromEntries(summary.split(', ').map((pair) => {
    const [key, value] = pair.split(': ')
    return [key!, Number(value)]
  }))
}

/** .taprc's per-test timeout, applied the way `tap` applies it to a file run on its own. */
const TIMEOUT_SECONDS = '120'

/** A file to run, in a suite with that suite's environment. */
export interface PoolItem { file: string; suite: string; env: Record<string, string> }

function runFile({ file, suite, env }: PoolItem, nodeArgs: string[]): Promise<FileResult> {
  const started = performance.now()
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgs, file], {
      env: { ...process.env, TAP_TIMEOUT: TIMEOUT_SECONDS, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => { output += chunk })
    child.stderr.on('data', (chunk: Buffer) => { output += chunk })
    child.on('close', (code, signal) => {
      const summary = output.match(SUMMARY)
      const counts = summary ? countsOf(summary[1]!) : {}
      const failed = counts.fail ?? 0
      // A file that crashed or exited non-zero without a failed assertion counts as one failure, never as a pass.
      const crashed = (code !== 0 || signal !== null || !summary) && failed === 0
      resolve({
        file, suite, passed: counts.pass ?? 0, failed: crashed ? 1 : failed, skipped: (counts.skip ?? 0) + (counts.todo ?? 0),
        ms: performance.now() - started, output: crashed ? `${output}\n# exited with ${signal ?? code}` : output,
      })
    })
  })
}

const indent = (text: string) => text.replace(/^(?=.)/gm, '    ')

/**
 * Runs the items with `jobs` at a time (one per CPU by default, TEST_JOBS to change), in the order given (the caller
 * puts the longest first, so that none starts last and runs alone at the end). Prints a TAP line per file as it ends,
 * with the whole output of a file that failed.
 */
export async function runFiles(items: PoolItem[], opts: { nodeArgs: string[] }): Promise<FileResult[]> {
  const jobs = Number(process.env.TEST_JOBS) || os.availableParallelism()
  const queue = [...items]
  const results: FileResult[] = []
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      const result = await runFile(item, opts.nodeArgs)
      results.push(result)
      const ok = result.failed === 0
      if (!ok) process.stdout.write(indent(result.output) + '\n')
      process.stdout.write(`${ok ? 'ok' : 'not ok'} ${results.length} - ${item.file} (${item.suite}) # time=${result.ms.toFixed(0)}ms\n`)
    }
  }
  await Promise.all(Array.from({ length: Math.min(jobs, queue.length) }, worker))
  return results
}
