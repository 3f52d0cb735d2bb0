import t from 'tap'
import { CHUNK_LOAD_TIMEOUT_MS, ChunkLoadError, loadChunk } from '../../../islands/loader/chunks.ts'

t.test('the SPEC timeout is 120 s', async (t) => {
  t.equal(CHUNK_LOAD_TIMEOUT_MS, 120_000)
})

t.test('a loaded chunk resolves to its module', async (t) => {
  const module = { islands: {} }
  t.equal(await loadChunk('user', async () => module), module)
})

t.test('a chunk that never arrives fails with a timeout naming the chunk', async (t) => {
  const error = await loadChunk('rule', () => new Promise<never>(() => {}), 5).catch((e: unknown) => e)
  t.ok(error instanceof ChunkLoadError)
  t.match(error, { name: 'ChunkLoadError', chunk: 'rule', failure: 'timeout', message: 'Loading chunk rule failed (timeout)' })
})

t.test('a failed fetch is a network failure and keeps the cause', async (t) => {
  const cause = new TypeError('Failed to fetch dynamically imported module: /static/build/chunks/user-X.js')
  const error = await loadChunk('user', () => Promise.reject(cause)).catch((e: unknown) => e)
  t.match(error, { chunk: 'user', failure: 'network', message: 'Loading chunk user failed (network)' })
  t.equal((error as Error).cause, cause)
})

t.test('a module that throws while running is an evaluation failure', async (t) => {
  const error = await loadChunk('admin', () => Promise.reject(new RangeError('boom'))).catch((e: unknown) => e)
  t.match(error, { chunk: 'admin', failure: 'evaluation' })
})

t.test('a late chunk after its timeout does not change the outcome', async (t) => {
  let arrive: (value: string) => void = () => {}
  const pending = loadChunk('media', () => new Promise<string>((resolve) => { arrive = resolve }), 5)
  const error = await pending.catch((e: unknown) => e)
  arrive('late')
  t.match(error, { failure: 'timeout' })
})
