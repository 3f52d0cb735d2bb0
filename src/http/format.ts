// How pages word things: dates in the viewer's own time zone (preferences.tz, falling back to UTC), and counts.
import { formatDateTime } from '../engine/index.ts'

export function dateFormatter(tz: string | undefined): (date: Date) => string {
  return (date) => formatDateTime(date, tz)
}

/** "1 rule", "3 rules": a count with its noun, for nouns made plural with an s. */
export function countOf(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}
