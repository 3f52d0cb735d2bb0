// Notifications are requested with a DOM event so islands and plain scripts need no reference to the
// notifications island: `document.dispatchEvent(new CustomEvent('app:notify', { detail: { text: 'Saved' } }))`.

export const NOTIFY_EVENT = 'app:notify'

export type NotificationType = 'info' | 'success' | 'warning' | 'error'

export interface NotifyOptions {
  type?: NotificationType
  heading?: string
  text?: string
  /** Milliseconds until it closes; errors and sticky notifications stay until closed when it is absent. */
  timeout?: number
  sticky?: boolean
}

export function notify(options: NotifyOptions): void {
  document.dispatchEvent(new CustomEvent<NotifyOptions>(NOTIFY_EVENT, { detail: options }))
}
