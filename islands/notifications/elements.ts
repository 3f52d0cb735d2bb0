// The DOM of one notification (bottom centre) and one flash alert (top), with the class names islands.css styles.
import type { FlashMessage } from './props.ts'
import type { Notice } from './queue.ts'

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  node.className = className
  if (text !== undefined) node.textContent = text
  return node
}

function body(message: { heading?: string, text: string }): HTMLDivElement {
  const node = element('div', 'notification__body')
  if (message.heading) node.append(element('strong', 'notification__heading', message.heading))
  node.append(element('p', 'notification__text', message.text))
  return node
}

function closeButton(label: string, onClose: () => void): HTMLButtonElement {
  const button = element('button', 'notification__close', '×')
  button.type = 'button'
  button.setAttribute('aria-label', label)
  button.addEventListener('click', onClose)
  return button
}

export function noticeElement(notice: Notice, onClose: () => void): HTMLLIElement {
  const item = element('li', `notification notification--${notice.type}`)
  item.dataset.type = notice.type
  const content = body(notice)
  // Errors are announced at once; the others wait for the polite live region.
  if (notice.type === 'error') content.setAttribute('role', 'alert')
  item.append(content, closeButton('Close notification', onClose))
  return item
}

export function alertElement(alert: FlashMessage, onClose: () => void): HTMLDivElement {
  const node = element('div', `flash-alert flash-alert--${alert.type}`)
  node.dataset.type = alert.type
  node.dataset.state = 'open'
  node.setAttribute('role', alert.type === 'error' ? 'alert' : 'status')
  node.append(body(alert), closeButton('Close message', onClose))
  return node
}
