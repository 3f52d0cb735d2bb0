// After a form post made or deleted a dictionary entry, the page it leads to tells the browser's other tabs:
// the announcements wait in the session (like flash messages) and go out once in that page's app context as
// `entityEvents`, which islands/entity-sync relays, so other tabs' `{{` suggestions follow without a reload.
import type { FastifyRequest } from 'fastify'
import type { EntityRow } from '../../services/authoring/entities.ts'

export interface EntityAnnouncement {
  event: 'entity:created' | 'entity:deleted'
  detail: Record<string, unknown>
}

declare module 'fastify' {
  interface Session {
    entityEvents?: EntityAnnouncement[]
  }
}

function announce(request: FastifyRequest, announcement: EntityAnnouncement): void {
  request.session.entityEvents = [...(request.session.entityEvents ?? []), announcement]
}

/** The detail as islands/entity-sync/events.ts reads it (the fields of an /api/entity answer it needs). */
export function announceEntityCreated(request: FastifyRequest, row: EntityRow): void {
  const { id, reservedName, entityTypeId, dataType, expression, ownerId, adviceSetId } = row
  announce(request, { event: 'entity:created', detail: { id, reservedName, entityTypeId, dataType, expression, ownerId, adviceSetId } })
}

export function announceEntityDeleted(request: FastifyRequest, id: number): void {
  announce(request, { event: 'entity:deleted', detail: { id } })
}

/** The waiting announcements, removed from the session: a page says them once. */
export function takeEntityAnnouncements(request: FastifyRequest): EntityAnnouncement[] {
  const waiting = request.session?.entityEvents ?? []
  if (request.session?.entityEvents) delete request.session.entityEvents
  return waiting
}
