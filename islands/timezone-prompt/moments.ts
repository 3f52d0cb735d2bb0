// The moments a page shows (<time data-moment>, written by the server in the viewer's zone) rewritten in another
// zone, so a page reads in the new zone at once after the person chooses it, without a reload that would lose a form.
import { formatDateTime } from '../../src/engine/format/date-time.ts'

export function showMomentsIn(root: ParentNode, tz: string): number {
  const moments = root.querySelectorAll<HTMLTimeElement>('time[data-moment]')
  for (const moment of moments) {
    const text = formatDateTime(moment.dateTime, tz)
    if (text) moment.textContent = text
  }
  for (const label of root.querySelectorAll<HTMLElement>('[data-time-zone-label]')) label.textContent = tz
  return moments.length
}
