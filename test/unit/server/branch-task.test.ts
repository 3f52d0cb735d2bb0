// The in-process background tasks of branch generation (services/scenarios/branch-task.ts): slices that let the event
// loop turn, progress, cancel between slices, failures, and the per-person limit.
import t from 'tap'
import { MAX_RUNNING_PER_USER, TaskRegistry } from '../../../src/services/scenarios/branch-task.ts'
import type { BranchProgress } from '../../../src/engine/index.ts'
import type { Actor } from '../../../src/services/context.ts'
import { ConflictError, NotFoundError } from '../../../src/services/errors.ts'

const actor = (userId: number): Actor => ({ userId, ownerId: 'o', role: 'author', impersonatorId: null })
const turn = () => new Promise((resolve) => setImmediate(resolve))

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

async function settled(registry: TaskRegistry<unknown, string>, who: Actor, id: string) {
  while (registry.status(who, id).state === 'running') await turn()
  return registry.status(who, id)
}

t.test('a task runs in slices, reports progress and keeps its result', async (t) => {
  const registry = new TaskRegistry<{ note: string }, string>('generate')
  const { steps } = walk(60, 1)
  const started = registry.start(actor(1), 7, { note: 'ctx' }, steps, (value) => value.toUpperCase())
  t.match(started, { state: 'running', done: 0, kind: 'generate', adviceSetId: 7 })
  let turns = 0
  const seen = new Set<number>()
  while (registry.status(actor(1), started.id).state === 'running') {
    seen.add(registry.status(actor(1), started.id).done)
    turns++
    await turn()
  }
  t.ok(turns > 1, `the event loop turned ${turns} times while it ran`)
  t.ok(seen.size > 1, 'progress moved between slices')
  const read = registry.read(actor(1), started.id)
  t.same(read.context, { note: 'ctx' })
  t.equal(read.result, 'WALKED 60')
  t.match(read.status, { state: 'done', done: 60, total: 60 })
  t.ok(read.status.finishedAt)
})

t.test('cancel stops the walk before its next slice', async (t) => {
  const registry = new TaskRegistry<null, string>('generate')
  const { steps, pulled } = walk(1_000_000)
  const started = registry.start(actor(2), 1, null, steps, (value) => value)
  await turn()
  const cancelled = registry.cancel(actor(2), started.id)
  t.equal(cancelled.state, 'cancelled')
  const at = pulled.count
  for (let i = 0; i < 5; i++) await turn()
  t.equal(pulled.count, at, 'nothing more is pulled')
  t.equal(registry.read(actor(2), started.id).result, undefined)
  t.equal(registry.cancel(actor(2), started.id).state, 'cancelled', 'cancelling again changes nothing')
})

t.test('a walk that throws fails the task with its message', async (t) => {
  const registry = new TaskRegistry<null, string>('compare')
  const { steps } = walk(10, 0, 4)
  const started = registry.start(actor(3), 1, null, steps, (value) => value)
  const status = await settled(registry, actor(3), started.id)
  t.match(status, { state: 'failed', error: 'the walk broke', kind: 'compare' })
})

t.test('another person sees no task; one person runs a limited number at once', async (t) => {
  const registry = new TaskRegistry<null, string>('generate')
  const ids = Array.from({ length: MAX_RUNNING_PER_USER }, () => registry.start(actor(4), 1, null, walk(1_000_000).steps, (v) => v).id)
  t.throws(() => registry.status(actor(5), ids[0]!), NotFoundError)
  t.throws(() => registry.cancel(actor(5), ids[0]!), NotFoundError)
  t.notOk(registry.has(actor(5), ids[0]!))
  t.throws(() => registry.start(actor(4), 1, null, walk(1).steps, (v) => v), new ConflictError('task', 'You already have 3 branch generations running: wait for one to finish or cancel it.'))
  registry.start(actor(5), 1, null, walk(1).steps, (v) => v)
  t.pass('someone else may still start one')
  for (const id of ids) registry.cancel(actor(4), id)
  t.ok(registry.start(actor(4), 1, null, walk(1).steps, (v) => v).id, 'after cancelling, the person may start again')
})
