import { InvalidPropsError } from '../shared/invalid-props.ts'
import { isRecord, optionalString } from '../shared/guards.ts'
import type { NotificationType } from '../shared/notify.ts'

export interface FlashMessage {
  type: NotificationType
  heading?: string
  text: string
  sticky?: boolean
}

export interface NotificationsProps {
  flash: FlashMessage[]
}

const TYPES: readonly string[] = ['info', 'success', 'warning', 'error'] satisfies NotificationType[]

function isNotificationType(value: unknown): value is NotificationType {
  return typeof value === 'string' && TYPES.includes(value)
}

function parseFlash(raw: unknown): FlashMessage {
  if (!isRecord(raw) || typeof raw.text !== 'string') throw new InvalidPropsError('a flash message needs a text')
  const type = isNotificationType(raw.type) ? raw.type : 'info'
  return { type, heading: optionalString(raw.heading), text: raw.text, sticky: raw.sticky === true }
}

export function parseNotificationsProps(raw: unknown): NotificationsProps {
  const flash = isRecord(raw) && Array.isArray(raw.flash) ? raw.flash : []
  return { flash: flash.map(parseFlash) }
}
