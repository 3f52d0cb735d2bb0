// The embedded database's minute of vacuum and analysis waits for a quiet look: each holds PGlite's one backend for
// its whole run, and durable answers wait for their commits meanwhile (src/db/embedded-upkeep.ts).
import t from 'tap'
import { BUSY_SHARE_FOR_VACUUM, VACUUM_PUT_OFF_MAX_MS, VacuumPacer } from '../../../src/db/embedded-upkeep.ts'

const LOOK_MS = 10_000

/** Looks every 10 s from 0, the app keeping the database `shares[i]` busy before look i; which looks ran the vacuum. */
function vacuumLooks(shares: number[]): number[] {
  const pacer = new VacuumPacer(0, 0)
  let busyMs = 0
  const ran: number[] = []
  shares.forEach((share, i) => {
    busyMs += share * LOOK_MS
    if (pacer.look((i + 1) * LOOK_MS, busyMs)) ran.push(i + 1)
  })
  return ran
}

t.test('on a quiet database the vacuum looks once a minute', async (t) => {
  t.same(vacuumLooks(Array(18).fill(0.01)), [6, 12, 18])
})

t.test('while the app keeps the database busy the look waits, and runs at the first quiet look', async (t) => {
  const busy = BUSY_SHARE_FOR_VACUUM * 2
  t.same(vacuumLooks([...Array(9).fill(0.01), ...Array(4).fill(busy), 0.01, 0.01, 0.01, 0.01, 0.01]), [6, 14, 18], 'due at look 12, busy until 13; look 18 on time')
  t.same(vacuumLooks([...Array(5).fill(0.01), busy, busy, 0.01, 0.01, 0.01, 0.01, 0.01]), [8, 12], 'the next minute keeps its own time')
})

t.test('a vacuum put off for ten minutes runs however busy the database is', async (t) => {
  const looksToWait = VACUUM_PUT_OFF_MAX_MS / LOOK_MS
  const ran = vacuumLooks(Array(6 + looksToWait + 1).fill(0.9))
  t.same(ran, [6 + looksToWait], `due at look 6, run ${looksToWait} looks later`)
})
