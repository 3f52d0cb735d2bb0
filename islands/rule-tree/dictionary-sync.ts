// The suggestions' dictionary following entries made or deleted anywhere (this tab or another, islands/entity-sync).
import { ENTITY_TYPES } from '../../src/engine/entity-types.ts'
import { belongsToSet, type CreatedEntity } from '../entity-sync/events.ts'
import type { DictionaryEntry } from './props.ts'

/** The entries with a made one added, once, when the set's dictionary holds it. */
export function withCreatedEntity(entries: readonly DictionaryEntry[], entity: CreatedEntity, set: { id: number; ownerId: string }): readonly DictionaryEntry[] {
  if (!belongsToSet(entity, set) || entries.some((entry) => entry.id === entity.id)) return entries
  const kind = entity.entityTypeId === ENTITY_TYPES.formula.id ? 'formula' : 'variable'
  return [...entries, { id: entity.id, name: entity.reservedName, kind, dataType: entity.dataType, expression: kind === 'formula' ? entity.expression : null }]
}

/** The entries without the one of this id (deleted, or about to be replaced). */
export function withoutEntry(entries: readonly DictionaryEntry[], id: number): readonly DictionaryEntry[] {
  return entries.some((entry) => entry.id === id) ? entries.filter((entry) => entry.id !== id) : entries
}
