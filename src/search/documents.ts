// From an audited change to what the index must do, one mapper per searchable entity type (the audit log's entity
// type names): advice sets, rules, rule nodes, dictionary entries and supplements. A change reaches every document that shows
// what changed: a set's rules, nodes and set-kept entries carry its owner, name and flags; a rule's nodes leave and
// come back with it, and rule calls show the called rule's name; a node is deleted, recovered and copied with its
// subtree.
import type { Db } from '../db/client.ts'
import {
  adviceSetSources, adviceSetSourcesAfter, countLiveAdviceSets, countLiveRules, ruleIdsOfSet, ruleSources, ruleSourcesAfter,
} from '../db/queries/search.ts'
import { subtreeIds } from '../db/queries/rule-nodes.ts'
import { countLiveSupplements, supplementSearchRows } from '../db/queries/supplements.ts'
import {
  adviceSetDocument, adviceSetObjectId, dictionaryDocument, dictionaryObjectId, nodeDocument, nodeObjectId, ruleDocument, ruleObjectId,
  supplementDocument, supplementObjectId,
} from './document-builders.ts'
import {
  countLiveDictionaryEntries, countLiveNodes, dictionaryIdsOfSet, dictionarySources, dictionarySourcesAfter, nodeIdsOf, nodeSources,
  nodeSourcesAfter, type NodeSelection, type NodeSource,
} from './sources.ts'
import type { SearchDocument } from './types.ts'

/** What the index must do after a change to one entity. */
export interface IndexChange {
  upsert: SearchDocument[]
  remove: string[]
}

export interface DocumentMapper {
  /** The entity type as the audit log names it. */
  entityType: string
  /**
   * The documents showing these entities as they are now; those of whatever is gone or deleted are removed. Several
   * at once, read in as few statements as the type allows: a pass of the indexer applies all its tasks together.
   */
  changeFor(db: Db, entityIds: string[]): Promise<IndexChange>
  count(db: Db): Promise<number>
  /** Every live entity's documents, a batch at a time, for a rebuild. */
  batches(db: Db, size: number): AsyncGenerator<SearchDocument[]>
}

/** The ids that are numbers; any other names no entity. */
function idsOf(entityIds: string[]): number[] {
  return entityIds.map(Number).filter((id) => Number.isSafeInteger(id))
}

/** For a type whose documents are read entity by entity: each entity's change, read together, made one. */
function eachOf(changeForOne: (db: Db, id: number) => Promise<IndexChange>): DocumentMapper['changeFor'] {
  return async (db, entityIds) => mergedChanges(await Promise.all(idsOf(entityIds).map((id) => changeForOne(db, id))))
}

/**
 * Several changes as one: a document that two of them cover (a node and its rule) is written once, and documents go
 * in id order, so that two writers of the same documents lock their rows in the same order.
 */
export function mergedChanges(changes: IndexChange[]): IndexChange {
  const upsert = new Map(changes.flatMap((c) => c.upsert.map((document) => [document.objectID, document] as const)))
  const remove = new Set(changes.flatMap((c) => c.remove).filter((id) => !upsert.has(id)))
  return {
    upsert: [...upsert.values()].sort((a, b) => a.objectID.localeCompare(b.objectID)),
    remove: [...remove].sort(),
  }
}

/** Upserts what is live, removes the rest of `candidates`. */
function change(candidates: string[], live: SearchDocument[]): IndexChange {
  const kept = new Set(live.map((d) => d.objectID))
  return { upsert: live, remove: candidates.filter((id) => !kept.has(id)) }
}

async function nodeDocuments(db: Db, by: NodeSelection): Promise<SearchDocument[]> {
  return (await nodeSources(db, by)).map(nodeDocument).filter((d) => d !== null)
}

/** Walks a source in id order, `size` rows at a time. */
async function* inBatches<T extends { id: number }>(read: (after: number) => Promise<T[]>, toDocuments: (rows: T[]) => SearchDocument[]) {
  let after = 0
  for (;;) {
    const rows = await read(after)
    if (rows.length === 0) return
    yield toDocuments(rows)
    after = rows.at(-1)!.id
  }
}

const adviceSetMapper: DocumentMapper = {
  entityType: 'adviceset',
  changeFor: eachOf(async (db, id) => {
    const ruleIds = await ruleIdsOfSet(db, id)
    const candidates = [
      adviceSetObjectId(id), ...ruleIds.map(ruleObjectId), ...(await nodeIdsOf(db, { adviceSetIds: [id] })).map(nodeObjectId),
      ...(await dictionaryIdsOfSet(db, id)).map(dictionaryObjectId),
    ]
    const [set] = await adviceSetSources(db, [id])
    if (!set) return change(candidates, [])
    return change(candidates, [
      adviceSetDocument(set), ...(await ruleSources(db, { adviceSetIds: [id] })).map(ruleDocument),
      ...(await nodeDocuments(db, { adviceSetIds: [id] })), ...(await dictionarySources(db, { adviceSetIds: [id] })).map(dictionaryDocument),
    ])
  }),
  count: countLiveAdviceSets,
  batches: (db, size) => inBatches((after) => adviceSetSourcesAfter(db, after, size), (sets) => sets.map(adviceSetDocument)),
}

const ruleMapper: DocumentMapper = {
  entityType: 'rule',
  changeFor: eachOf(async (db, id) => {
    const candidates = [ruleObjectId(id), ...(await nodeIdsOf(db, { ruleIds: [id] })).map(nodeObjectId)]
    const live = [...(await ruleSources(db, { ruleIds: [id] })).map(ruleDocument), ...(await nodeDocuments(db, { ruleIds: [id] }))]
    // Calls to the rule from elsewhere are named after it; a deleted rule leaves them as they were.
    const callers = live.length > 0 ? await nodeDocuments(db, { calledRuleIds: [id] }) : []
    return change(candidates, [...live, ...callers.filter((d) => !live.some((l) => l.objectID === d.objectID))])
  }),
  count: countLiveRules,
  batches: (db, size) => inBatches((after) => ruleSourcesAfter(db, after, size), (found) => found.map(ruleDocument)),
}

const ruleNodeMapper: DocumentMapper = {
  entityType: 'rulenode',
  async changeFor(db, entityIds) {
    const ids = idsOf(entityIds)
    if (ids.length === 0) return { upsert: [], remove: [] }
    // Two statements for any number of nodes, sent together: the live nodes are selected by the same subtrees in SQL,
    // not by the ids read first.
    const [subtrees, live] = await Promise.all([subtreeIds(db, ids), nodeDocuments(db, { subtreesOf: ids })])
    return change(subtrees.map(nodeObjectId), live)
  },
  count: countLiveNodes,
  batches: (db, size) => inBatches((after) => nodeSourcesAfter(db, after, size), (nodes: NodeSource[]) => nodes.map(nodeDocument).filter((d) => d !== null)),
}

const dictionaryMapper: DocumentMapper = {
  entityType: 'entity',
  async changeFor(db, entityIds) {
    const ids = idsOf(entityIds)
    if (ids.length === 0) return { upsert: [], remove: [] }
    return change(ids.map(dictionaryObjectId), (await dictionarySources(db, { ids })).map(dictionaryDocument))
  },
  count: countLiveDictionaryEntries,
  batches: (db, size) => inBatches((after) => dictionarySourcesAfter(db, after, size), (entries) => entries.map(dictionaryDocument)),
}

/** Media and visualizations ('supplement' is the audit name of services/files/supplements.ts). */
const supplementMapper: DocumentMapper = {
  entityType: 'supplement',
  async changeFor(db, entityIds) {
    const ids = idsOf(entityIds)
    if (ids.length === 0) return { upsert: [], remove: [] }
    return change(ids.map(supplementObjectId), (await supplementSearchRows(db, { ids })).map(supplementDocument))
  },
  count: countLiveSupplements,
  batches: (db, size) => inBatches((after) => supplementSearchRows(db, { afterId: after, limit: size }), (rows) => rows.map(supplementDocument)),
}

export const DOCUMENT_MAPPERS: readonly DocumentMapper[] = [adviceSetMapper, ruleMapper, ruleNodeMapper, dictionaryMapper, supplementMapper]

export function isSearchable(entityType: string): boolean {
  return mapperFor(entityType) !== undefined
}

export function mapperFor(entityType: string): DocumentMapper | undefined {
  return DOCUMENT_MAPPERS.find((m) => m.entityType === entityType)
}
