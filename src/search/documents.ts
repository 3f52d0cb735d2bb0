// From application rows to search documents, one mapper per searchable entity type (the audit log's entity type
// names). Rules, rule nodes, variables and formulas add a mapper here when they exist; nothing else changes.
import type { Db } from '../db/client.ts'
import { adviceSetSources, adviceSetSourcesAfter, countLiveAdviceSets, type AdviceSetSource } from '../db/queries/search.ts'
import { ENTITY_TYPES } from '../engine/entity-types.ts'
import type { SearchDocument } from './types.ts'

/** What the index must do after a change to one entity. */
export interface IndexChange {
  upsert: SearchDocument[]
  remove: string[]
}

export interface DocumentMapper {
  /** The entity type as the audit log names it. */
  entityType: string
  /** The entity's documents as they are now: removed when the entity is gone or deleted. */
  changeFor(db: Db, entityId: string): Promise<IndexChange>
  count(db: Db): Promise<number>
  /** Every live entity's documents, a batch at a time, for a rebuild. */
  batches(db: Db, size: number): AsyncGenerator<SearchDocument[]>
}

export function adviceSetObjectId(id: number): string {
  return `adviceset-${id}`
}

export function adviceSetDocument(set: AdviceSetSource): SearchDocument {
  const type = ENTITY_TYPES.adviceSet
  // Sets are shown by name_alt (SPEC §2); a set without one is shown by its name.
  const nameAlt = set.nameAlt || set.name
  return {
    objectID: adviceSetObjectId(set.id),
    entityType: { id: type.id, displayName: type.displayName },
    ownerId: set.ownerId,
    ownerName: set.ownerName,
    name: set.name,
    name_alt: nameAlt,
    uri: `/adviceset/${set.id}/show`,
    nodeId: null,
    rule: null,
    adviceset: { id: set.id, name: set.name, name_alt: nameAlt, isPublic: set.isPublic, isStarter: set.isStarter },
    tags: set.tags,
    text: [set.description, ...set.tags].join('\n'),
    updatedAt: set.updatedAt,
  }
}

const adviceSetMapper: DocumentMapper = {
  entityType: 'adviceset',
  async changeFor(db, entityId) {
    const id = Number(entityId)
    const [set] = Number.isSafeInteger(id) ? await adviceSetSources(db, [id]) : []
    return set ? { upsert: [adviceSetDocument(set)], remove: [] } : { upsert: [], remove: [adviceSetObjectId(id)] }
  },
  count: countLiveAdviceSets,
  async *batches(db, size) {
    let after = 0
    for (;;) {
      const sets = await adviceSetSourcesAfter(db, after, size)
      if (sets.length === 0) return
      yield sets.map(adviceSetDocument)
      after = sets.at(-1)!.id
    }
  },
}

export const DOCUMENT_MAPPERS: readonly DocumentMapper[] = [adviceSetMapper]

export function isSearchable(entityType: string): boolean {
  return mapperFor(entityType) !== undefined
}

export function mapperFor(entityType: string): DocumentMapper | undefined {
  return DOCUMENT_MAPPERS.find((m) => m.entityType === entityType)
}
