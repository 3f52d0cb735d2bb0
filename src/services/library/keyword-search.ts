// The global search's suggestion (issue 14 part 6): when the search text matches a phrase of a keyword map the user
// can see (its team's maps and the provider's, leading to a set the user reads), the map's target comes first. Words
// are compared as search folds them (case and accents ignored). A phrase matches when the text is the phrase, holds
// it as whole words ("retire at 60 please" holds "retire at 60"), or — from three letters on, while typing — is the
// phrase's beginning ("retire a" for "retire at 60"). The best match wins: the whole phrase, then held, then begun;
// then the user's own team's map before the provider's; then the longer phrase.
import { listKeywordMaps, type KeywordMapListRow } from '../../db/queries/keyword-maps.ts'
import { ENTITY_TYPES } from '../../engine/entity-types.ts'
import { escapeHtml, words } from '../../search/text.ts'
import { canReadSet } from '../accounts/visibility.ts'
import { PROVIDER_OWNER_ID, type Actor, type Deps } from '../context.ts'
import { keywordMapTarget } from './keyword-maps.ts'

/** Maps read per search: far more than any team keeps; the phrases are compared here, not in SQL. */
const CANDIDATES_LIMIT = 5000
const MIN_TYPED_LETTERS = 3

const HOW = { whole: 3, held: 2, begun: 1 } as const

function indexOfRun(haystack: string[], needle: string[]): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer
    return i
  }
  return -1
}

/** How well `phrase` matches the query's words: 3 whole, 2 held, 1 begun, 0 not at all. */
export function phraseMatch(query: string[], phrase: string[], typing: boolean): number {
  if (query.length === 0 || phrase.length === 0) return 0
  if (query.length === phrase.length && indexOfRun(query, phrase) === 0) return HOW.whole
  if (indexOfRun(query, phrase) >= 0) return HOW.held
  if (!typing || query.join('').length < MIN_TYPED_LETTERS || query.length > phrase.length) return 0
  const last = query.length - 1
  for (let i = 0; i < last; i++) if (query[i] !== phrase[i]) return 0
  return phrase[last]!.startsWith(query[last]!) ? HOW.begun : 0
}

interface Scored { row: KeywordMapListRow; phrase: string; score: number }

function best(actor: Actor, rows: KeywordMapListRow[], text: string): Scored | null {
  const query = words(text)
  const typing = !/\s$/.test(text)
  let found: Scored | null = null
  for (const row of rows) {
    for (const phrase of row.map.phrases) {
      const score = phraseMatch(query, words(phrase), typing)
      if (score === 0) continue
      const candidate = { row, phrase, score }
      if (!found || better(actor, candidate, found)) found = candidate
    }
  }
  return found
}

function better(actor: Actor, a: Scored, b: Scored): boolean {
  if (a.score !== b.score) return a.score > b.score
  const ownA = a.row.map.ownerId === actor.ownerId
  const ownB = b.row.map.ownerId === actor.ownerId
  if (ownA !== ownB) return ownA
  if (a.phrase.length !== b.phrase.length) return a.phrase.length > b.phrase.length
  return a.row.map.id < b.row.map.id
}

const plain = (value: string) => ({ value: escapeHtml(value), matchLevel: 'none' as const, matchedWords: [] as string[] })

/**
 * The suggested hit for this search text, shaped as the search's hits are (SPEC §3 search hit) with a `suggestion`
 * member the search box and the screener show as "Suggested"; null when no map matches.
 */
export async function keywordMapSuggestion(deps: Deps, actor: Actor, text: string) {
  if (words(text).length === 0) return null
  const owners = [...new Set([actor.ownerId, PROVIDER_OWNER_ID])]
  const rows = (await listKeywordMaps(deps.db, { ownerIds: owners, liveTargets: true, limit: CANDIDATES_LIMIT }))
    .filter((row) => canReadSet(actor, { ownerId: row.set.ownerId, isPublic: row.set.isPublic, isStarter: row.set.isStarter }))
  const found = best(actor, rows, text)
  if (!found) return null
  const { map, set, scenario } = found.row
  return {
    objectID: `keywordmap-${map.id}`,
    entityType: { id: ENTITY_TYPES.adviceSet.id, displayName: ENTITY_TYPES.adviceSet.displayName },
    ownerId: set.ownerId,
    ownerName: set.ownerName,
    name: set.name,
    name_alt: set.nameAlt,
    uri: keywordMapTarget(set.id, scenario?.id ?? null),
    nodeId: null,
    rule: null,
    adviceset: { id: set.id, name: set.name, name_alt: set.nameAlt, isPublic: set.isPublic, isStarter: set.isStarter },
    suggestion: { keywordMapId: map.id, name: map.name, phrase: found.phrase, scenario: scenario ? { id: scenario.id, name: scenario.name } : null },
    _highlightResult: { name: plain(set.name), name_alt: plain(set.nameAlt) },
  }
}

export type KeywordMapHit = NonNullable<Awaited<ReturnType<typeof keywordMapSuggestion>>>
