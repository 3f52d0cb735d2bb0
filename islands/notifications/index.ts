// Toast notifications at the bottom centre (requested through `notify()` / the `app:notify` event) and the
// server's flash messages as alerts at the top. Plain DOM, mounted by the loader, so no page needs React for it.
import { NOTIFY_EVENT } from '../shared/notify.ts'
import type { NotifyOptions } from '../shared/notify.ts'
import { readIslandProps } from '../shared/read-props.ts'
import { alertElement, noticeElement } from './elements.ts'
import { parseNotificationsProps } from './props.ts'
import type { FlashMessage } from './props.ts'
import { alertSlideUpAfter, dismiss, enqueue, toNotice } from './queue.ts'
import type { Notice } from './queue.ts'

// Matches the slide-up transition in islands.css.
const SLIDE_UP_TRANSITION_MS = 200

interface Shown {
  element: HTMLElement
  timer?: ReturnType<typeof setTimeout>
}

/** Keeps the stack's DOM equal to the queue that queue.ts computes, each notice with its own close timer. */
function listenForNotices(stack: HTMLOListElement): void {
  let notices: Notice[] = []
  let nextId = 0
  const shown = new Map<number, Shown>()

  const show = (next: Notice[]) => {
    const kept = new Set(next.map((notice) => notice.id))
    for (const [id, item] of shown) {
      if (kept.has(id)) continue
      clearTimeout(item.timer)
      item.element.remove()
      shown.delete(id)
    }
    for (const notice of next) {
      if (shown.has(notice.id)) continue
      const element = noticeElement(notice, () => close(notice.id))
      stack.append(element)
      const timer = notice.closeAfterMs === null ? undefined : setTimeout(() => close(notice.id), notice.closeAfterMs)
      shown.set(notice.id, { element, timer })
    }
    notices = next
  }
  const close = (id: number) => show(dismiss(notices, id))

  document.addEventListener(NOTIFY_EVENT, (event) => {
    const notice = toNotice((event as CustomEvent<NotifyOptions>).detail ?? {}, ++nextId)
    if (notice) show(enqueue(notices, notice))
  })
}

function showAlert(container: HTMLElement, alert: FlashMessage): void {
  let slideUp: ReturnType<typeof setTimeout> | undefined
  const element = alertElement(alert, () => {
    clearTimeout(slideUp)
    element.remove()
  })
  container.append(element)
  const slideUpAfter = alertSlideUpAfter(alert)
  if (slideUpAfter === null) return
  slideUp = setTimeout(() => {
    element.dataset.state = 'closing'
    setTimeout(() => element.remove(), SLIDE_UP_TRANSITION_MS)
  }, slideUpAfter)
}

/** Replaces the server-rendered flash fallback with the alerts and the notification stack. */
export function mountNotifications(root: HTMLElement): void {
  const { flash } = parseNotificationsProps(readIslandProps(root, 'notifications'))
  const alerts = document.createElement('div')
  alerts.className = 'flash-alerts'
  const stack = document.createElement('ol')
  stack.className = 'notification-stack'
  stack.setAttribute('aria-live', 'polite')
  stack.setAttribute('aria-label', 'Notifications')
  root.replaceChildren(alerts, stack)
  for (const message of flash) showAlert(alerts, message)
  listenForNotices(stack)
  root.dataset.islandState = 'mounted'
}
