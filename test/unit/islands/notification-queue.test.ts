import t from 'tap'
import fc from 'fast-check'
import {
  ALERT_SLIDE_UP_MS, MAX_NOTIFICATIONS, NOTIFICATION_TIMEOUT_MS, alertSlideUpAfter, dismiss, enqueue, toNotice,
} from '../../../islands/notifications/queue.ts'
import type { Notice } from '../../../islands/notifications/queue.ts'

t.test('SPEC constants', async (t) => {
  t.equal(MAX_NOTIFICATIONS, 5)
  t.equal(NOTIFICATION_TIMEOUT_MS, 3000)
  t.equal(ALERT_SLIDE_UP_MS, 5000)
})

t.test('non-error notifications close after 3000 ms unless given another timeout', async (t) => {
  for (const type of ['info', 'success', 'warning'] as const) {
    t.equal(toNotice({ type, text: 'x' }, 1)?.closeAfterMs, 3000, type)
    t.equal(toNotice({ type, text: 'x', timeout: 1500 }, 1)?.closeAfterMs, 1500, `${type} with a timeout`)
  }
  t.equal(toNotice({ text: 'x' }, 1)?.type, 'info', 'info is the default type')
})

t.test('errors stay until closed and are headed "Error" by default', async (t) => {
  t.match(toNotice({ type: 'error', text: 'Failed' }, 1), { heading: 'Error', closeAfterMs: null })
  t.match(toNotice({ type: 'error', heading: 'Oops!', text: 'Failed' }, 1), { heading: 'Oops!' })
  t.equal(toNotice({ type: 'info', text: 'x' }, 1)?.heading, undefined, 'other types get no default heading')
})

t.test('sticky notifications stay until closed', async (t) => {
  t.equal(toNotice({ type: 'info', text: 'x', sticky: true }, 1)?.closeAfterMs, null)
  t.equal(toNotice({ type: 'info', text: 'x', sticky: true, timeout: 10 }, 1)?.closeAfterMs, null)
})

t.test('a notification without text shows nothing', async (t) => {
  t.equal(toNotice({ type: 'error' }, 1), null)
  t.equal(toNotice({ type: 'info', heading: 'Heading only', text: '' }, 1), null)
})

const notice = (id: number): Notice => ({ id, type: 'info', text: `n${id}`, closeAfterMs: 3000 })

t.test('at most 5 at once: the oldest is dropped', async (t) => {
  let queue: Notice[] = []
  for (let id = 1; id <= 7; id++) queue = enqueue(queue, notice(id))
  t.same(queue.map((n) => n.id), [3, 4, 5, 6, 7])
})

t.test('any sequence of adds and closes keeps the newest ones, never more than 5', async () => {
  fc.assert(fc.property(fc.array(fc.oneof(fc.constant('add' as const), fc.nat(20))), (steps) => {
    let queue: Notice[] = []
    let next = 0
    for (const step of steps) queue = step === 'add' ? enqueue(queue, notice(++next)) : dismiss(queue, step)
    const ids = queue.map((n) => n.id)
    return ids.length <= MAX_NOTIFICATIONS && ids.every((id, i) => i === 0 || id > (ids[i - 1] ?? 0))
  }))
})

t.test('dismiss removes only the closed one', async (t) => {
  t.same(dismiss([notice(1), notice(2), notice(3)], 2).map((n) => n.id), [1, 3])
})

t.test('only non-sticky info alerts slide up by themselves, after 5000 ms', async (t) => {
  t.equal(alertSlideUpAfter({ type: 'info' }), 5000)
  t.equal(alertSlideUpAfter({ type: 'info', sticky: true }), null)
  t.equal(alertSlideUpAfter({ type: 'success' }), null)
  t.equal(alertSlideUpAfter({ type: 'error' }), null)
})
