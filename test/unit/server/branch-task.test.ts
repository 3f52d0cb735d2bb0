// How a branch task's job pulls its walk (services/scenarios/branch-task.ts runInSlices): slices that let the event
// loop turn, progress after each slice, a stop between slices when the job is cancelled, and a failing walk's error.
// The tasks as jobs (start, read, cancel, the per-person limit) are tested through the API: test/api/scenarios.
import t from 'tap'
import { runInSlices } from '../../../src/services/scenarios/branch-task.ts'
import type { BranchProgress } from '../../../src/engine/index.ts'
import { JobAbortedError } from '../../../src/jobs/types.ts'

/** A walk of `total` steps that counts how often it was pulled; each step takes `busyMs`. */
function walk(total: number, busyMs = 0, fail?: number) {
  const pulled = { count: 0 }
  function* steps(): Generator<BranchProgress, string, undefined> {
    for (let done = 1; done <= total; done++) {
      pulled.count++
      const until = performance.now() + busyMs
      while (performance.now() < until) { /* work */ }
      if (done === fail) throw new Error('the walk broke')
      yield { done, total }
    }
    return `walked ${total}`
  }
  return { steps: steps(), pulled }
}

t.test('a walk runs in slices, reports progress between them and returns its value', async (t) => {
  const { steps } = walk(60, 1)
  const reports: BranchProgress[] = []
  let turns = 0
  const ticking = setInterval(() => turns++, 0)
  const value = await runInSlices(steps, async (step) => { reports.push(step) }, new AbortController().signal)
  clearInterval(ticking)
  t.equal(value, 'walked 60')
  t.ok(reports.length > 1, `progress reported after each of ${reports.length} slices`)
  t.ok(reports.every((step, i) => i === 0 || step.done > reports[i - 1]!.done), 'progress only moves forward')
  t.ok(turns > 0, 'the event loop turned between slices')
})

t.test('a cancelled job stops the walk before its next slice', async (t) => {
  const { steps, pulled } = walk(1_000_000)
  const stop = new AbortController()
  const running = runInSlices(steps, async () => { stop.abort() }, stop.signal)
  await t.rejects(running, JobAbortedError)
  const at = pulled.count
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(pulled.count, at, 'nothing more is pulled')
  t.ok(at < 1_000_000, `stopped after ${at.toLocaleString('en')} steps`)
})

t.test('progress that throws (the job was taken away) stops the walk too', async (t) => {
  const { steps } = walk(1_000_000)
  await t.rejects(runInSlices(steps, async () => { throw new JobAbortedError('cancelled') }, new AbortController().signal), JobAbortedError)
})

t.test('a walk that throws fails with its message', async (t) => {
  const { steps } = walk(10, 0, 4)
  await t.rejects(runInSlices(steps, async () => {}, new AbortController().signal), { message: 'the walk broke' })
})
