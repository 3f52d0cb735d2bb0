// The app's one way to show a moment: "Nov 26, 2026 10:38" in the viewer's time zone (preferences.tz), or UTC
// (said so) when the zone is missing or unknown. Pages and islands both use it, so a time reads alike everywhere.
import { formatInTimeZone } from 'date-fns-tz'

export function formatDateTime(date: Date | string, tz: string | undefined): string {
  const moment = typeof date === 'string' ? new Date(date) : date
  if (Number.isNaN(moment.getTime())) return ''
  try {
    return formatInTimeZone(moment, tz || 'UTC', 'MMM d, yyyy HH:mm')
  } catch {
    return formatInTimeZone(moment, 'UTC', "MMM d, yyyy HH:mm 'UTC'")
  }
}
