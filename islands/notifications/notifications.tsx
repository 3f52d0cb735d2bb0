// Toast notifications at the bottom centre (requested through `notify()` / the `app:notify` event) and the
// server's flash messages as alerts at the top.
import { useEffect, useState } from 'react'
import { NOTIFY_EVENT } from '../shared/notify.ts'
import type { NotifyOptions } from '../shared/notify.ts'
import { alertSlideUpAfter, dismiss, enqueue, toNotice } from './queue.ts'
import type { Notice } from './queue.ts'
import type { FlashMessage, NotificationsProps } from './props.ts'

// Matches the slide-up transition in islands.css.
const SLIDE_UP_TRANSITION_MS = 200

let nextId = 0

interface Alert extends FlashMessage {
  id: number
  closing: boolean
}

function useTimeout(callback: () => void, delayMs: number | null): void {
  useEffect(() => {
    if (delayMs === null) return
    const timer = setTimeout(callback, delayMs)
    return () => clearTimeout(timer)
  }, [delayMs])
}

function CloseButton({ label, onClose }: { label: string, onClose: () => void }) {
  return <button type="button" className="notification__close" aria-label={label} onClick={onClose}>×</button>
}

function NotificationItem({ notice, onClose }: { notice: Notice, onClose: (id: number) => void }) {
  useTimeout(() => onClose(notice.id), notice.closeAfterMs)
  return (
    <li className={`notification notification--${notice.type}`} data-type={notice.type}>
      <div className="notification__body" role={notice.type === 'error' ? 'alert' : undefined}>
        {notice.heading && <strong className="notification__heading">{notice.heading}</strong>}
        <p className="notification__text">{notice.text}</p>
      </div>
      <CloseButton label="Close notification" onClose={() => onClose(notice.id)} />
    </li>
  )
}

function AlertItem({ alert, onSlideUp, onClose }: {
  alert: Alert, onSlideUp: (id: number) => void, onClose: (id: number) => void
}) {
  useTimeout(() => onSlideUp(alert.id), alertSlideUpAfter(alert))
  useTimeout(() => onClose(alert.id), alert.closing ? SLIDE_UP_TRANSITION_MS : null)
  return (
    <div className={`flash-alert flash-alert--${alert.type}`} data-type={alert.type}
      data-state={alert.closing ? 'closing' : 'open'} role={alert.type === 'error' ? 'alert' : 'status'}>
      <div className="notification__body">
        {alert.heading && <strong className="notification__heading">{alert.heading}</strong>}
        <p className="notification__text">{alert.text}</p>
      </div>
      <CloseButton label="Close message" onClose={() => onClose(alert.id)} />
    </div>
  )
}

export function Notifications({ flash }: NotificationsProps) {
  const [notices, setNotices] = useState<Notice[]>([])
  const [alerts, setAlerts] = useState<Alert[]>(() => flash.map((message) => ({ ...message, id: ++nextId, closing: false })))

  useEffect(() => {
    const onNotify = (event: Event) => {
      const notice = toNotice((event as CustomEvent<NotifyOptions>).detail ?? {}, ++nextId)
      if (notice) setNotices((current) => enqueue(current, notice))
    }
    document.addEventListener(NOTIFY_EVENT, onNotify)
    return () => document.removeEventListener(NOTIFY_EVENT, onNotify)
  }, [])

  const closeNotice = (id: number) => setNotices((current) => dismiss(current, id))
  const slideUpAlert = (id: number) =>
    setAlerts((current) => current.map((alert) => alert.id === id ? { ...alert, closing: true } : alert))
  const closeAlert = (id: number) => setAlerts((current) => current.filter((alert) => alert.id !== id))

  return (
    <>
      <div className="flash-alerts">
        {alerts.map((alert) =>
          <AlertItem key={alert.id} alert={alert} onSlideUp={slideUpAlert} onClose={closeAlert} />)}
      </div>
      <ol className="notification-stack" aria-live="polite" aria-label="Notifications">
        {notices.map((notice) => <NotificationItem key={notice.id} notice={notice} onClose={closeNotice} />)}
      </ol>
    </>
  )
}
