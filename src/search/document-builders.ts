// One search document (SPEC §3 search hit plus searched text) per searchable row. Everything inside an advice set
// carries the set's owner, name and flags, so visibility (SPEC §6) is decided on the document alone.
import type { AdviceSetSource, RuleSource } from '../db/queries/search.ts'
import { ENTITY_TYPES, LIBRARY_TYPES, NODE_TYPES, type EntityTypeKey, type NodeType } from '../engine/entity-types.ts'
import type { SupplementRow } from '../db/queries/supplements.ts'
import type { DictionarySource, NodeSource } from './sources.ts'
import type { SearchDocument } from './types.ts'

export const adviceSetObjectId = (id: number): string => `adviceset-${id}`
export const ruleObjectId = (id: number): string => `rule-${id}`
export const nodeObjectId = (id: number): string => `rulenode-${id}`
export const dictionaryObjectId = (id: number): string => `entity-${id}`
export const supplementObjectId = (id: number): string => `supplement-${id}`

function entityType(key: EntityTypeKey): SearchDocument['entityType'] {
  return { id: ENTITY_TYPES[key].id, displayName: ENTITY_TYPES[key].displayName }
}

function setFields(set: AdviceSetSource): NonNullable<SearchDocument['adviceset']> {
  // Sets are shown by name_alt (SPEC §2); a set without one is shown by its name.
  return { id: set.id, name: set.name, name_alt: set.nameAlt || set.name, isPublic: set.isPublic, isStarter: set.isStarter }
}

export function adviceSetDocument(set: AdviceSetSource): SearchDocument {
  const adviceset = setFields(set)
  return {
    objectID: adviceSetObjectId(set.id),
    entityType: entityType('adviceSet'),
    ownerId: set.ownerId,
    ownerName: set.ownerName,
    name: set.name,
    name_alt: adviceset.name_alt,
    uri: `/adviceset/${set.id}/show`,
    nodeId: null,
    rule: null,
    adviceset,
    tags: set.tags,
    text: [set.description, ...set.tags].join('\n'),
    updatedAt: set.updatedAt,
  }
}

export function ruleDocument(rule: RuleSource): SearchDocument {
  return {
    objectID: ruleObjectId(rule.id),
    entityType: entityType('rule'),
    ownerId: rule.set.ownerId,
    ownerName: rule.set.ownerName,
    name: rule.name,
    name_alt: rule.name,
    uri: `/adviceset/${rule.set.id}/rule/${rule.id}/show`,
    nodeId: null,
    rule: { id: rule.id },
    adviceset: setFields(rule.set),
    tags: [],
    text: '',
    updatedAt: rule.updatedAt,
  }
}

/** Node types with nothing of their own to find them by: never indexed. */
export const UNNAMED_NODE_TYPES: readonly NodeType[] = ['conditionAlways', 'ruleExit']

/**
 * How an author knows a node: its headline, question or expression as written (a rule call by the rule it calls);
 * name_alt is the variable it asks for or sets. Null when there is none.
 */
export function nodeNames(node: NodeSource): { name: string; nameAlt: string } | null {
  const first = (...texts: Array<string | null>) => texts.find((t) => t !== null && t.trim() !== '')?.trim() ?? ''
  const named = (name: string, nameAlt = '') => (name === '' ? null : { name, nameAlt: nameAlt || name })
  switch (node.type) {
    case 'advice': return named(first(node.headline, node.text))
    case 'inputRequest': return named(first(node.question, node.variable), first(node.variable))
    case 'condition':
    case 'variableAssignment': return named(first(node.expression))
    case 'formula': return named(first(node.expression), first(node.variable))
    case 'ruleCall': return named(first(node.calledRuleName))
    case 'apiCall': return named(first(node.apiId), first(node.variable))
    default: return null
  }
}

export function nodeDocument(node: NodeSource): SearchDocument | null {
  const names = nodeNames(node)
  if (!names || !(NODE_TYPES as readonly string[]).includes(node.type)) return null
  return {
    objectID: nodeObjectId(node.id),
    entityType: entityType(node.type as NodeType),
    ownerId: node.set.ownerId,
    ownerName: node.set.ownerName,
    name: names.name,
    name_alt: names.nameAlt,
    uri: `/adviceset/${node.set.id}/rule/${node.ruleId}/part/${node.id}`,
    nodeId: node.id,
    rule: { id: node.ruleId },
    adviceset: setFields(node.set),
    tags: [],
    text: [node.headline, node.text, node.question, node.expression, node.variable].filter((t) => t !== null).join('\n'),
    updatedAt: node.updatedAt,
  }
}

/** A variable or formula of the dictionary; an entry kept for a set carries that set. */
export function dictionaryDocument(entry: DictionarySource): SearchDocument {
  const key = entry.entityTypeId === ENTITY_TYPES.formula.id ? 'formula' : 'variable'
  return {
    objectID: dictionaryObjectId(entry.id),
    entityType: entityType(key),
    ownerId: entry.ownerId,
    ownerName: entry.ownerName,
    name: entry.reservedName,
    name_alt: entry.reservedName,
    uri: `/card/${key}/${entry.id}`,
    nodeId: null,
    rule: null,
    adviceset: entry.set ? setFields(entry.set) : null,
    tags: [],
    text: [entry.description, entry.expression ?? ''].join('\n'),
    updatedAt: entry.updatedAt,
  }
}

/** A supplement of the media library or a visualization: found by its name, description and address; its owner's alone. */
export function supplementDocument(row: SupplementRow & { ownerName: string }): SearchDocument {
  const viz = row.format === 'viz'
  const type = viz ? LIBRARY_TYPES.visualization : LIBRARY_TYPES.supplement
  return {
    objectID: supplementObjectId(row.id),
    entityType: { id: type.id, displayName: type.displayName },
    ownerId: row.ownerId,
    ownerName: row.ownerName,
    name: row.name,
    name_alt: row.name,
    uri: `${viz ? '/visualizations' : '/media'}/${row.id}/show`,
    nodeId: null,
    rule: null,
    adviceset: null,
    tags: [],
    text: [row.description, row.url ?? '', row.fileExt].filter((t) => t !== '').join('\n'),
    updatedAt: row.updatedAt,
  }
}
