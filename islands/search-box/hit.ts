// A search hit (SPEC.md §3, the /api/search contract) read defensively from JSON, and what a result shows:
// icon by entity type, highlighted name (name_alt for advice sets), parent advice set, and the owner when it
// differs from the current user's. A keyword map's target (the server puts it first) carries `suggestion`: it shows
// as "Suggested", with the scenario it opens when it has one.
import { ENTITY_TYPES, entityTypeById, libraryTypeById } from '../../src/engine/entity-types.ts'
import { isRecord } from '../shared/guards.ts'
import { HIGHLIGHT_POST_TAG, HIGHLIGHT_PRE_TAG } from './constants.ts'

export interface SearchHit {
  objectID: string
  entityTypeId: number
  entityTypeName: string
  ownerId: string
  ownerName: string
  name: string
  nameAlt: string
  uri: string
  nodeId: string | null
  ruleId: string | null
  adviceSet: { id: string, name: string, nameAlt: string } | null
  highlighted: { name?: string, nameAlt?: string }
  /** Set on a keyword map's target: the map's name and the scenario the target opens, if any. */
  suggestion: { mapName: string, scenarioName: string | null } | null
}

export interface HitContext {
  currentOwnerId: string | null
  currentAdviceSetId: string | null
}

export interface HighlightPart { text: string, marked: boolean }

export interface HitView {
  iconClass: string
  typeName: string
  title: HighlightPart[]
  /** The parent advice set's name, "This advice set", or null when it would only repeat the title. */
  parent: string | null
  /** "By: {owner}" when the owner differs from the current user's. */
  byline: string | null
  uri: string
  /** "Suggested" on a keyword map's target. */
  badge: string | null
  /** What a suggestion opens: "Scenario: {name}". */
  detail: string | null
}

export const SUGGESTED = 'Suggested'

export const THIS_ADVICE_SET = 'This advice set'

const text = (value: unknown): string => (typeof value === 'string' ? value : '')
const idText = (value: unknown): string | null =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : null

function highlightValue(raw: unknown, field: string): string | undefined {
  if (!isRecord(raw) || !isRecord(raw[field])) return undefined
  const value = raw[field].value
  return typeof value === 'string' ? value : undefined
}

export function parseHit(raw: unknown): SearchHit | undefined {
  if (!isRecord(raw) || typeof raw.objectID !== 'string' || typeof raw.uri !== 'string') return undefined
  const type = isRecord(raw.entityType) ? raw.entityType : {}
  const set = isRecord(raw.adviceset) ? raw.adviceset : null
  return {
    objectID: raw.objectID,
    entityTypeId: typeof type.id === 'number' ? type.id : Number(type.id),
    entityTypeName: text(type.displayName),
    ownerId: text(raw.ownerId),
    ownerName: text(raw.ownerName),
    name: text(raw.name),
    nameAlt: text(raw.name_alt),
    uri: raw.uri,
    nodeId: idText(raw.nodeId),
    ruleId: isRecord(raw.rule) ? idText(raw.rule.id) : null,
    adviceSet: set ? { id: idText(set.id) ?? '', name: text(set.name), nameAlt: text(set.name_alt) } : null,
    highlighted: {
      name: highlightValue(raw._highlightResult, 'name'),
      nameAlt: highlightValue(raw._highlightResult, 'name_alt'),
    },
    suggestion: isRecord(raw.suggestion)
      ? { mapName: text(raw.suggestion.name), scenarioName: isRecord(raw.suggestion.scenario) ? text(raw.suggestion.scenario.name) : null }
      : null,
  }
}

const ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'" }

function unescapeHtml(value: string): string {
  return value.replace(/&(?:amp|lt|gt|quot|#39|#x27);/g, (entity) => ENTITIES[entity] ?? entity)
}

/**
 * Splits a highlighted value (HTML-escaped text with only the highlight tags inserted) into plain text parts,
 * so the page builds text nodes and <mark> elements and never parses server text as HTML.
 */
export function highlightParts(value: string, pre = HIGHLIGHT_PRE_TAG, post = HIGHLIGHT_POST_TAG): HighlightPart[] {
  const parts: HighlightPart[] = []
  let rest = value
  let marked = false
  while (rest !== '') {
    const tag = marked ? post : pre
    const at = rest.indexOf(tag)
    const chunk = at === -1 ? rest : rest.slice(0, at)
    if (chunk !== '') parts.push({ text: unescapeHtml(chunk), marked })
    if (at === -1) break
    rest = rest.slice(at + tag.length)
    marked = !marked
  }
  return parts
}

function titleOf(hit: SearchHit): HighlightPart[] {
  const isAdviceSet = hit.entityTypeId === ENTITY_TYPES.adviceSet.id
  const useAlt = isAdviceSet && hit.nameAlt.trim() !== ''
  const highlighted = useAlt ? hit.highlighted.nameAlt : hit.highlighted.name
  if (highlighted !== undefined && highlighted !== '') return highlightParts(highlighted)
  return [{ text: useAlt ? hit.nameAlt : hit.name, marked: false }]
}

function parentOf(hit: SearchHit, title: string, context: HitContext): string | null {
  if (!hit.adviceSet) return null
  if (hit.adviceSet.id !== '' && hit.adviceSet.id === context.currentAdviceSetId) return THIS_ADVICE_SET
  const name = hit.adviceSet.nameAlt.trim() || hit.adviceSet.name
  return name === '' || name === title ? null : name
}

export function hitView(hit: SearchHit, context: HitContext): HitView {
  const type = entityTypeById(hit.entityTypeId) ?? libraryTypeById(hit.entityTypeId)
  const title = titleOf(hit)
  return {
    iconClass: type?.iconClass ?? 'icon-unknown',
    typeName: type?.displayName ?? hit.entityTypeName,
    title,
    parent: parentOf(hit, title.map((part) => part.text).join(''), context),
    byline: hit.ownerId !== '' && hit.ownerId !== context.currentOwnerId && hit.ownerName !== '' ? `By: ${hit.ownerName}` : null,
    uri: hit.uri,
    badge: hit.suggestion ? SUGGESTED : null,
    detail: hit.suggestion?.scenarioName ? `Scenario: ${hit.suggestion.scenarioName}` : null,
  }
}
