// Dates shown in the viewer's own time zone (preferences.tz), falling back to UTC.
import { formatInTimeZone } from 'date-fns-tz'

export function dateFormatter(tz: string | undefined): (date: Date) => string {
  const zone = tz || 'UTC'
  return (date) => {
    try { return formatInTimeZone(date, zone, 'MMM d, yyyy HH:mm') } catch { return formatInTimeZone(date, 'UTC', "MMM d, yyyy HH:mm 'UTC'") }
  }
}
