// Dictionary entries made or deleted (beside the renames of change.ts): the `entity:created` and `entity:deleted`
// events, the message that carries any of the three to other tabs, and whether a made entry belongs to a set's
// dictionary. Pure functions over plain values, so they can be tested without a DOM.
import { ENTITY_CHANGED_EVENT, parseEntityChange } from './change.ts'
import { isRecord } from '../shared/guards.ts'

export const ENTITY_CREATED_EVENT = 'entity:created'
export const ENTITY_DELETED_EVENT = 'entity:deleted'

/** A new entry with the fields a page's dictionary needs, as `/api/entity` answers it. */
export interface CreatedEntity {
  id: number
  reservedName: string
  entityTypeId: number
  dataType: string | null
  expression: string | null
  ownerId: string
  /** Null for an entry of the whole owner's dictionary. */
  adviceSetId: number | null
}

export interface DeletedEntity { id: number }

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0
const textOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string'

/** The entry of an `entity:created` detail (or an `/api/entity` answer's data), or null when it is not one. */
export function parseCreatedEntity(raw: unknown): CreatedEntity | null {
  if (!isRecord(raw)) return null
  const { id, reservedName, entityTypeId, dataType, expression, ownerId, adviceSetId } = raw
  if (!isId(id) || typeof reservedName !== 'string' || typeof entityTypeId !== 'number' || !textOrNull(dataType) || !textOrNull(expression)
    || typeof ownerId !== 'string' || !(adviceSetId === null || isId(adviceSetId))) return null
  return { id, reservedName, entityTypeId, dataType, expression, ownerId, adviceSetId }
}

export function parseDeletedEntity(raw: unknown): DeletedEntity | null {
  return isRecord(raw) && isId(raw.id) ? { id: raw.id } : null
}

const PARSERS = {
  [ENTITY_CHANGED_EVENT]: parseEntityChange,
  [ENTITY_CREATED_EVENT]: parseCreatedEntity,
  [ENTITY_DELETED_EVENT]: parseDeletedEntity,
} as const

export type SyncEventName = keyof typeof PARSERS
export const SYNC_EVENTS = Object.keys(PARSERS) as SyncEventName[]

/** What goes over the channel: the event's name and its checked detail. */
export interface SyncMessage { event: SyncEventName; detail: object }

function isSyncEventName(value: unknown): value is SyncEventName {
  return typeof value === 'string' && Object.hasOwn(PARSERS, value)
}

/** The event's detail if it is a valid one of its kind, else null. */
export function syncDetail(event: SyncEventName, detail: unknown): object | null {
  return PARSERS[event](detail)
}

/** A channel message (or a server's announcement), or null; a bare rename detail is what tabs of the previous bundle send. */
export function parseSyncMessage(raw: unknown): SyncMessage | null {
  if (isRecord(raw) && isSyncEventName(raw.event)) {
    const detail = syncDetail(raw.event, raw.detail)
    return detail ? { event: raw.event, detail } : null
  }
  const change = parseEntityChange(raw)
  return change ? { event: ENTITY_CHANGED_EVENT, detail: change } : null
}

/** Whether a made entry is in the dictionary of a set: the set owner's, for the whole owner or for this set. */
export function belongsToSet(entity: CreatedEntity, set: { id: number; ownerId: string }): boolean {
  return entity.ownerId === set.ownerId && (entity.adviceSetId === null || entity.adviceSetId === set.id)
}
