// Saying on `document` that an entry was made, for this page's islands and (through entity-sync) the other tabs.
import { ENTITY_CREATED_EVENT, parseCreatedEntity } from './events.ts'

/** `data`: the entry as POST /api/entity answered it. */
export function announceCreatedEntity(data: unknown): void {
  const created = parseCreatedEntity(data)
  if (created) document.dispatchEvent(new CustomEvent(ENTITY_CREATED_EVENT, { detail: created }))
}
