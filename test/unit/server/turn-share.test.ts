// Partner requests get a share of each turn of the event loop (src/http/api/turn-share.ts): a flood of them no longer
// fills whole turns, so I/O waiting in between (the database's replies) is reached after a few requests, not all.
import t from 'tap'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { TurnShare } from '../../../src/http/api/turn-share.ts'

t.test('two a turn, the rest in the following turns, in the order they came', async (t) => {
  const turns = new TurnShare(undefined, 2)
  const ran: number[] = []
  for (let i = 0; i < 7; i++) turns.enter(() => ran.push(i))
  t.same(ran, [0, 1], 'two at once')
  await nextTurn()
  t.same(ran, [0, 1, 2, 3], 'two more at the end of the turn')
  await nextTurn()
  await nextTurn()
  t.same(ran, [0, 1, 2, 3, 4, 5, 6], 'all of them within a few turns')
  turns.enter(() => ran.push(7))
  turns.enter(() => ran.push(8))
  t.same(ran.at(-1), 7, 'the last turn let one in: one more fits its share, the next waits')
  await nextTurn()
  t.same(ran.at(-1), 8)
})

t.test('I/O that completes meanwhile is handled between the shares', async (t) => {
  const turns = new TurnShare(undefined, 2)
  const order: string[] = []
  // A timer already due stands for the I/O: it runs at the start of the next turn, before the requests still waiting.
  setTimeout(() => order.push('io'), 1)
  const due = performance.now() + 3
  while (performance.now() < due) { /* the timer falls due */ }
  for (let i = 0; i < 6; i++) turns.enter(() => order.push(`request ${i}`))
  await new Promise((resolve) => setTimeout(resolve, 20))
  t.ok(order.indexOf('io') < order.indexOf('request 5'), `the I/O did not wait for every request: ${order.join(', ')}`)
  t.equal(order.filter((o) => o.startsWith('request')).length, 6, 'every request ran')
})
