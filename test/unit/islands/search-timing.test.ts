// The timed parts of the search box with node's mock timers: stall after 300 ms, debounce.
import t from 'tap'
import { mock } from 'node:test'
import { STALL_MS, VIEW_DEBOUNCE_MS, BLUR_HIDE_MS, RESIZE_DEBOUNCE_MS, HITS_PER_PAGE, QUERY_MAX_LENGTH } from '../../../islands/search-box/constants.ts'
import { debounce } from '../../../islands/search-box/debounce.ts'
import { trackStatus } from '../../../islands/search-box/status.ts'
import type { SearchStatus } from '../../../islands/search-box/status.ts'

t.beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }))
t.afterEach(() => mock.timers.reset())

t.test('SPEC §9 constants', async (t) => {
  t.same([HITS_PER_PAGE, QUERY_MAX_LENGTH, STALL_MS, VIEW_DEBOUNCE_MS, BLUR_HIDE_MS, RESIZE_DEBOUNCE_MS], [15, 512, 300, 400, 100, 20])
})

t.test('status: idle, loading, stalled after 300 ms, idle when the newest request settles', async (t) => {
  const seen: SearchStatus[] = []
  const status = trackStatus((next) => seen.push(next))
  t.equal(status.status, 'idle')
  const first = status.started()
  t.equal(status.status, 'loading')
  mock.timers.tick(STALL_MS - 1)
  t.equal(status.status, 'loading', 'not stalled at 299 ms')
  mock.timers.tick(1)
  t.equal(status.status, 'stalled')
  const second = status.started()
  status.settled(first)
  t.equal(status.status, 'stalled', 'an older request settling changes nothing')
  status.settled(second)
  t.equal(status.status, 'idle')
  t.same(seen, ['loading', 'stalled', 'idle'])
})

t.test('status: a request answered in time never stalls', async (t) => {
  const status = trackStatus(() => {})
  status.settled(status.started())
  mock.timers.tick(STALL_MS * 2)
  t.equal(status.status, 'idle')
})

t.test('debounce runs once, with the last arguments, after the quiet period; cancel drops it', async (t) => {
  const calls: string[] = []
  const report = debounce((query: string) => calls.push(query), VIEW_DEBOUNCE_MS)
  report('m')
  mock.timers.tick(200)
  report('mo')
  mock.timers.tick(VIEW_DEBOUNCE_MS - 1)
  t.same(calls, [], 'nothing before 400 ms of quiet')
  mock.timers.tick(1)
  t.same(calls, ['mo'])
  report('mor')
  report.cancel()
  mock.timers.tick(VIEW_DEBOUNCE_MS)
  t.same(calls, ['mo'], 'cancelled')
})
