// How pages word things: dates in the viewer's own time zone (preferences.tz, falling back to UTC), and counts.
import { formatInTimeZone } from 'date-fns-tz'

export function dateFormatter(tz: string | undefined): (date: Date) => string {
  const zone = tz || 'UTC'
  return (date) => {
    try { return formatInTimeZone(date, zone, 'MMM d, yyyy HH:mm') } catch { return formatInTimeZone(date, 'UTC', "MMM d, yyyy HH:mm 'UTC'") }
  }
}

/** "1 rule", "3 rules": a count with its noun, for nouns made plural with an s. */
export function countOf(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}
