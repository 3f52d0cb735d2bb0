// formatDateTime keeps a zone's offset per quarter hour instead of asking date-fns-tz each time: its text must be the one
// formatInTimeZone(moment, zone, 'MMM d, yyyy HH:mm') gives, in every zone (half- and quarter-hour offsets, daylight
// saving on either hemisphere, St John's old 00:01 changes), at any moment, and most of all around the changes.
import t from 'tap'
import fc from 'fast-check'
import { formatInTimeZone, getTimezoneOffset } from 'date-fns-tz'
import { formatDateTime } from '../../../src/engine/format/date-time.ts'

const ZONES = [
  'UTC', 'Europe/Amsterdam', 'Europe/London', 'America/New_York', 'America/St_Johns', 'America/Sao_Paulo', 'Asia/Kolkata',
  'Asia/Kathmandu', 'Australia/Lord_Howe', 'Australia/Adelaide', 'Pacific/Chatham', 'Pacific/Kiritimati', 'Pacific/Apia',
  'Africa/Casablanca', 'Asia/Tehran', 'America/Santiago', 'Antarctica/Troll',
]
const FROM = Date.UTC(1980, 0, 1)
const TO = Date.UTC(2100, 0, 1)
const expected = (time: number, zone: string) => formatInTimeZone(new Date(time), zone, 'MMM d, yyyy HH:mm')

t.test('the same text as date-fns-tz at random moments', async (t) => {
  fc.assert(fc.property(fc.integer({ min: FROM, max: TO }), fc.constantFrom(...ZONES), (time, zone) => formatDateTime(new Date(time), zone) === expected(time, zone)), { numRuns: 20_000 })
  t.pass('20,000 moments')
})

t.test('the same text every five minutes of each day the offset changes, 2005 to 2030', async (t) => {
  let changes = 0
  const DAY = 86_400_000
  const check = (time: number, zone: string) => {
    const written = formatDateTime(new Date(time), zone)
    if (written === expected(time, zone)) return true
    t.fail(`${zone} at ${new Date(time).toISOString()}: ${written} against ${expected(time, zone)}`)
    return false
  }
  for (const zone of ZONES) {
    // Changes found day by day (date-fns-tz's offset); each day with one is checked every five minutes, so each quarter
    // hour is seen three times (St John's changed at 00:01 local until 2011: within a quarter hour).
    for (let day = Date.UTC(2005, 0, 1); day < Date.UTC(2030, 0, 1); day += DAY) {
      if (getTimezoneOffset(zone, new Date(day)) === getTimezoneOffset(zone, new Date(day + DAY))) continue
      changes++
      for (let minute = day; minute <= day + DAY; minute += 5 * 60_000) if (!check(minute, zone)) return
    }
  }
  t.ok(changes > 300, `${changes} days with a change checked`)
})

t.test('a zone Intl does not know is shown in UTC, said so; a bad moment is empty; a string is read as a moment', async (t) => {
  t.equal(formatDateTime(new Date(Date.UTC(2026, 10, 26, 10, 38, 59)), 'Mars/Olympus_Mons'), 'Nov 26, 2026 10:38 UTC')
  t.equal(formatDateTime(new Date(Date.UTC(2026, 10, 26, 10, 38)), undefined), 'Nov 26, 2026 10:38')
  t.equal(formatDateTime('2026-01-05T23:59:00Z', 'Asia/Kathmandu'), 'Jan 6, 2026 05:44')
  t.equal(formatDateTime('not a date', 'UTC'), '')
})
