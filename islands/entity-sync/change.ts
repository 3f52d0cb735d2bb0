// The `entity:changed` event of a reserved-name change (SPEC.md §4) and what it means for one place on a page,
// as pure functions over plain values so they can be tested without a DOM.
import { ENTITY_TYPES } from '../../src/engine/entity-types.ts'
import { comparable } from '../inline-editor/fields.ts'
import type { EditorType } from '../inline-editor/fields.ts'
import { isRecord } from '../shared/guards.ts'

export const ENTITY_CHANGED_EVENT = 'entity:changed'
export const ENTITY_CHANNEL = 'entity-changes'

export interface EntityChange {
  id: number
  reservedName: string
  previousName: string
  entityTypeId: number
  previousEntityTypeId: number
  typeDisplayName: string
}

/** The change carried by an event or a channel message, or null when it is not one. */
export function parseEntityChange(raw: unknown): EntityChange | null {
  if (!isRecord(raw)) return null
  const { id, reservedName, previousName, entityTypeId, previousEntityTypeId, typeDisplayName } = raw
  if (typeof id !== 'number' || typeof reservedName !== 'string' || typeof previousName !== 'string'
    || typeof entityTypeId !== 'number' || typeof previousEntityTypeId !== 'number' || typeof typeDisplayName !== 'string') return null
  return { id, reservedName, previousName, entityTypeId, previousEntityTypeId, typeDisplayName }
}

function tag(name: string, entityTypeId: number): string {
  return entityTypeId === ENTITY_TYPES.formula.id ? `[[${name}]]` : `{{${name}}}`
}

/** `{{Old}}` (or `[[Old]]` for a formula, spaces inside allowed) written with the new name and kind. */
export function renameReferences(text: string, change: EntityChange): string {
  const name = change.previousName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const pattern = change.previousEntityTypeId === ENTITY_TYPES.formula.id ? `\\[\\[\\s*${name}\\s*\\]\\]` : `\\{\\{\\s*${name}\\s*\\}\\}`
  return text.replace(new RegExp(pattern, 'gu'), () => tag(change.reservedName, change.entityTypeId))
}

export interface BoxState {
  value: string
  original: string
  autosave?: string
  editor: EditorType
}

/**
 * A formula box's new content, or null to leave it: only an unmodified box (its value equals its original or its
 * autosave value, SPEC.md §5) that refers to the entry is refreshed, so nobody's typing is overwritten.
 */
export function refreshedBoxValue(box: BoxState, change: EntityChange): string | null {
  const value = comparable(box.value, box.editor)
  const unmodified = value === comparable(box.original, box.editor) || (box.autosave !== undefined && value === comparable(box.autosave, box.editor))
  if (!unmodified) return null
  const next = renameReferences(box.value, change)
  return next === box.value ? null : next
}

/** SPEC.md §4: the notice when the entry's type changed too. */
export function typeChangeNotice(change: EntityChange): string | null {
  return change.entityTypeId === change.previousEntityTypeId ? null : `This item was changed to a ${change.typeDisplayName} entity.`
}
