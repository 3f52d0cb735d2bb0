// The app's one way to show a moment: "Nov 26, 2026 10:38" in the viewer's time zone (preferences.tz), or UTC
// (said so) when the zone is missing or unknown. Pages and islands both use it, so a time reads alike everywhere.
// The text is the same as date-fns-tz's formatInTimeZone(moment, zone, 'MMM d, yyyy HH:mm') (test/unit/engine/
// date-time.test.ts compares them), which cost 8 µs a call: a list page shows each row's times twice (local, and UTC
// in the title), so 200 API keys took 6 ms of formatting. Here a zone's offset is asked of Intl once per quarter hour
// of time shown, and the rest is arithmetic.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
/** Offsets are kept per zone and quarter hour; one that changes within its quarter hour is not kept (asked each time). */
const QUARTER_HOUR_MS = 15 * 60_000
/** Entries kept at most, of zones' formatters and of offsets; past that they are dropped and asked again. */
const MAX_KEPT = 10_000

const formatters = new Map<string, Intl.DateTimeFormat | null>()
const offsets = new Map<string, number | null>()

/** The zone's wall clock to the second, or null for a zone Intl does not know. */
function formatterFor(zone: string): Intl.DateTimeFormat | null {
  let formatter = formatters.get(zone)
  if (formatter !== undefined) return formatter
  try {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', hourCycle: 'h23' })
  } catch {
    formatter = null
  }
  if (formatters.size >= MAX_KEPT) formatters.clear()
  formatters.set(zone, formatter)
  return formatter
}

/** How far the zone's wall clock is ahead of UTC at `at` (a whole second), in ms. */
function offsetAt(formatter: Intl.DateTimeFormat, at: number): number {
  const part: Record<string, number> = {}
  for (const { type, value } of formatter.formatToParts(at)) part[type] = Number(value)
  return Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!) - at
}

function offsetOf(zone: string, formatter: Intl.DateTimeFormat, time: number): number {
  const start = Math.floor(time / QUARTER_HOUR_MS) * QUARTER_HOUR_MS
  const key = `${zone}|${start}`
  let offset = offsets.get(key)
  if (offset === undefined) {
    const atStart = offsetAt(formatter, start)
    offset = offsetAt(formatter, start + QUARTER_HOUR_MS - 1000) === atStart ? atStart : null
    if (offsets.size >= MAX_KEPT) offsets.clear()
    offsets.set(key, offset)
  }
  return offset ?? offsetAt(formatter, Math.floor(time / 1000) * 1000)
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n))

/** A wall-clock time written with UTC's getters: "Nov 26, 2026 10:38". */
function wallClock(local: Date): string {
  return `${MONTHS[local.getUTCMonth()]} ${local.getUTCDate()}, ${String(local.getUTCFullYear()).padStart(4, '0')} ${two(local.getUTCHours())}:${two(local.getUTCMinutes())}`
}

export function formatDateTime(date: Date | string, tz: string | undefined): string {
  const moment = typeof date === 'string' ? new Date(date) : date
  const time = moment.getTime()
  if (Number.isNaN(time)) return ''
  const zone = tz || 'UTC'
  if (zone === 'UTC') return wallClock(moment)
  const formatter = formatterFor(zone)
  if (formatter === null) return `${wallClock(moment)} UTC`
  return wallClock(new Date(time + offsetOf(zone, formatter, time)))
}
