// From application rows to search documents, one mapper per searchable entity type (the audit log's entity type
// names). Advice sets and rules are indexed; rule nodes, variables and formulas add a mapper here the same way.
import type { Db } from '../db/client.ts'
import {
  adviceSetSources, adviceSetSourcesAfter, countLiveAdviceSets, countLiveRules, ruleIdsOfSet, ruleSources, ruleSourcesAfter,
  type AdviceSetSource, type RuleSource,
} from '../db/queries/search.ts'
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

export function ruleObjectId(id: number): string {
  return `rule-${id}`
}

export function ruleDocument(rule: RuleSource): SearchDocument {
  const type = ENTITY_TYPES.rule
  const set = adviceSetDocument(rule.set)
  return {
    ...set,
    objectID: ruleObjectId(rule.id),
    entityType: { id: type.id, displayName: type.displayName },
    name: rule.name,
    name_alt: rule.name,
    uri: `/adviceset/${rule.set.id}/rule/${rule.id}/show`,
    rule: { id: rule.id },
    tags: [],
    text: '',
    updatedAt: rule.updatedAt,
  }
}

const adviceSetMapper: DocumentMapper = {
  entityType: 'adviceset',
  // A set's rules carry its owner, name and flags, so they change with it (and leave the index with it).
  async changeFor(db, entityId) {
    const id = Number(entityId)
    if (!Number.isSafeInteger(id)) return { upsert: [], remove: [] }
    const [set] = await adviceSetSources(db, [id])
    if (!set) return { upsert: [], remove: [adviceSetObjectId(id), ...(await ruleIdsOfSet(db, id)).map(ruleObjectId)] }
    return { upsert: [adviceSetDocument(set), ...(await ruleSources(db, { adviceSetIds: [id] })).map(ruleDocument)], remove: [] }
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

const ruleMapper: DocumentMapper = {
  entityType: 'rule',
  async changeFor(db, entityId) {
    const id = Number(entityId)
    if (!Number.isSafeInteger(id)) return { upsert: [], remove: [] }
    const [rule] = await ruleSources(db, { ruleIds: [id] })
    return rule ? { upsert: [ruleDocument(rule)], remove: [] } : { upsert: [], remove: [ruleObjectId(id)] }
  },
  count: countLiveRules,
  async *batches(db, size) {
    let after = 0
    for (;;) {
      const found = await ruleSourcesAfter(db, after, size)
      if (found.length === 0) return
      yield found.map(ruleDocument)
      after = found.at(-1)!.id
    }
  },
}

export const DOCUMENT_MAPPERS: readonly DocumentMapper[] = [adviceSetMapper, ruleMapper]

export function isSearchable(entityType: string): boolean {
  return mapperFor(entityType) !== undefined
}

export function mapperFor(entityType: string): DocumentMapper | undefined {
  return DOCUMENT_MAPPERS.find((m) => m.entityType === entityType)
}
