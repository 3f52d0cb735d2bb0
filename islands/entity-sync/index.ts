// Reserved-name change (SPEC.md §4) on every page, plain DOM and started by the loader: relays `entity:changed`,
// `entity:created` and `entity:deleted` events to the other tabs over a BroadcastChannel, replays theirs here, and on
// a rename updates the generic places that show an entry: `[data-entity-id]` names and links (text) and inputs
// (value), and `[data-formula-box]` editors. Made and deleted entries matter to the islands that list entries (the
// rule tree's `{{` suggestions), which listen for those events themselves.
import { notify } from '../shared/notify.ts'
import { isRecord } from '../shared/guards.ts'
import { ENTITY_CHANGED_EVENT, ENTITY_CHANNEL, parseEntityChange, refreshedBoxValue, renameReferences, typeChangeNotice } from './change.ts'
import type { EntityChange } from './change.ts'
import { parseSyncMessage, SYNC_EVENTS, syncDetail, type SyncMessage } from './events.ts'

// The inline editor's event for setting a field's value from outside (islands/README.md).
const SET_VALUE_EVENT = 'inline-editor:set-value'

function isEditable(element: Element): element is HTMLInputElement | HTMLTextAreaElement {
  return element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement
}

function updateNames(root: ParentNode, change: EntityChange): number {
  const elements = root.querySelectorAll<HTMLElement>(`[data-entity-id="${change.id}"]:not([data-formula-box])`)
  for (const element of elements) {
    if (isEditable(element)) element.value = change.reservedName
    else element.textContent = change.reservedName
    element.dataset.entityName = change.reservedName
  }
  return elements.length
}

/** A plain form's box gets the new text and its form shows its reset button (SPEC.md §4). */
function refreshEditable(box: HTMLInputElement | HTMLTextAreaElement, change: EntityChange): boolean {
  const next = refreshedBoxValue({
    value: box.value, original: box.dataset.originalValue ?? box.defaultValue, autosave: box.dataset.autosaveValue,
    editor: box instanceof HTMLTextAreaElement ? 'textarea' : 'input',
  }, change)
  if (next === null) return false
  box.value = next
  box.dispatchEvent(new Event('input', { bubbles: true }))
  for (const reset of box.form?.querySelectorAll<HTMLElement>('[data-form-reset], button[type="reset"]') ?? []) reset.hidden = false
  return true
}

/** An inline-editor field is told its new value; the editor then shows Save and Reset itself. */
function refreshInlineField(field: HTMLElement, change: EntityChange): boolean {
  if (field.dataset.changed === 'true') return false
  const value = field.dataset.autosaveValue ?? field.dataset.originalValue ?? ''
  const next = refreshedBoxValue({ value, original: value, editor: field.dataset.editor === 'textarea' ? 'textarea' : 'input' }, change)
  if (next === null) return false
  field.dispatchEvent(new CustomEvent(SET_VALUE_EVENT, { bubbles: true, detail: { value: next } }))
  return true
}

function updateFormulaBoxes(root: ParentNode, change: EntityChange): number {
  let updated = 0
  for (const box of root.querySelectorAll<HTMLElement>('[data-formula-box]')) {
    const field = box.matches('[data-name]') ? box : box.querySelector<HTMLElement>('[data-name]')
    if (isEditable(box) ? refreshEditable(box, change) : field ? refreshInlineField(field, change) : refreshText(box, change)) updated += 1
  }
  return updated
}

/** A box that only displays an expression always shows the current names. */
function refreshText(box: HTMLElement, change: EntityChange): boolean {
  const next = renameReferences(box.textContent ?? '', change)
  if (next === box.textContent) return false
  box.textContent = next
  return true
}

export function applyEntityChange(root: ParentNode, change: EntityChange): void {
  const shown = updateNames(root, change) + updateFormulaBoxes(root, change)
  const notice = typeChangeNotice(change)
  if (notice && shown > 0) notify({ type: 'info', text: notice })
}

/** Entries made or deleted by the form post that led to this page, as the server announces them in the app context. */
function announcedMessages(): SyncMessage[] {
  try {
    const context: unknown = JSON.parse(document.getElementById('app-context')?.textContent ?? 'null')
    const announced = isRecord(context) && Array.isArray(context.entityEvents) ? context.entityEvents : []
    return announced.map(parseSyncMessage).filter((message): message is SyncMessage => message !== null)
  } catch {
    return []
  }
}

export function startEntitySync(): void {
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(ENTITY_CHANNEL) : null
  // Events replayed from another tab must not be sent back to it.
  const replayed = new WeakSet<Event>()
  for (const name of SYNC_EVENTS) {
    document.addEventListener(name, (event) => {
      const detail = syncDetail(name, (event as CustomEvent<unknown>).detail)
      if (!detail) return
      if (!replayed.has(event)) channel?.postMessage({ event: name, detail } satisfies SyncMessage)
      const change = name === ENTITY_CHANGED_EVENT ? parseEntityChange(detail) : null
      if (change) applyEntityChange(document, change)
    })
  }
  channel?.addEventListener('message', (message) => {
    const parsed = parseSyncMessage(message.data)
    if (!parsed) return
    const event = new CustomEvent(parsed.event, { detail: parsed.detail })
    replayed.add(event)
    document.dispatchEvent(event)
  })
  // This page already shows what a form post made or deleted; the other tabs learn of it now.
  for (const message of announcedMessages()) channel?.postMessage(message)
}
