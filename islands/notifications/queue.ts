// Rules for what the notifications island shows (SPEC.md §4, §8, §9), kept free of React so they can be
// tested on their own.
import type { NotificationType, NotifyOptions } from '../shared/notify.ts'

export const MAX_NOTIFICATIONS = 5
export const NOTIFICATION_TIMEOUT_MS = 3000
export const ALERT_SLIDE_UP_MS = 5000
export const DEFAULT_ERROR_HEADING = 'Error'

export interface Notice {
  id: number
  type: NotificationType
  heading?: string
  text: string
  /** Null: stays until the user closes it. */
  closeAfterMs: number | null
}

function closeAfter(options: NotifyOptions, type: NotificationType): number | null {
  if (options.sticky) return null
  if (options.timeout !== undefined) return options.timeout
  if (type === 'error') return null
  return NOTIFICATION_TIMEOUT_MS
}

/** A notification without text shows nothing: null. */
export function toNotice(options: NotifyOptions, id: number): Notice | null {
  if (!options.text) return null
  const type = options.type ?? 'info'
  const heading = options.heading || (type === 'error' ? DEFAULT_ERROR_HEADING : undefined)
  return { id, type, heading, text: options.text, closeAfterMs: closeAfter(options, type) }
}

/** Adds the newest at the end; beyond the maximum the oldest ones go. */
export function enqueue(notices: readonly Notice[], notice: Notice, max = MAX_NOTIFICATIONS): Notice[] {
  return [...notices, notice].slice(-max)
}

export function dismiss(notices: readonly Notice[], id: number): Notice[] {
  return notices.filter((notice) => notice.id !== id)
}

/** Alerts are the server's flash messages; only info alerts that are not sticky slide up by themselves. */
export function alertSlideUpAfter(alert: { type: NotificationType, sticky?: boolean }): number | null {
  return alert.type === 'info' && !alert.sticky ? ALERT_SLIDE_UP_MS : null
}
