// How pages word things: dates in the viewer's own time zone (preferences.tz, falling back to UTC), and counts.
import { formatDateTime } from '../engine/index.ts'

export function dateFormatter(tz: string | undefined): (date: Date) => string {
  return (date) => formatDateTime(date, tz)
}

/**
 * A moment as a <time> element (for `<%~ %>`): the text in the viewer's zone, the exact instant in `datetime` and,
 * on hover, in UTC. data-moment lets the page rewrite it when the person chooses another zone.
 */
export function timeTagger(tz: string | undefined): (date: Date | string) => string {
  return (date) => {
    const moment = typeof date === 'string' ? new Date(date) : date
    if (Number.isNaN(moment.getTime())) return ''
    const iso = moment.toISOString()
    return `<time datetime="${iso}" data-moment title="${formatDateTime(moment, 'UTC')} UTC">${formatDateTime(moment, tz)}</time>`
  }
}

/** "1 rule", "3 rules": a count with its noun, for nouns made plural with an s. */
export function countOf(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}
