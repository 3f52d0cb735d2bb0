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
import { heldPhrases, type HeldPhrase } from './keyword-phrases.ts'

/** Maps whose targets are read at a time, best match first, until one leads to a set the user reads. */
const TARGETS_READ_AT_ONCE = 20

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

interface Scored { phrase: HeldPhrase; score: number }

/** Every matching phrase, best first; a map's later phrases are left out (its best one stands for it). */
function ranked(actor: Actor, phrases: HeldPhrase[], text: string): Scored[] {
  const query = words(text)
  const typing = !/\s$/.test(text)
  const found: Scored[] = []
  for (const phrase of phrases) {
    const score = phraseMatch(query, phrase.words, typing)
    if (score > 0) found.push({ phrase, score })
  }
  found.sort((a, b) => (better(actor, a, b) ? -1 : better(actor, b, a) ? 1 : 0))
  const seen = new Set<number>()
  return found.filter(({ phrase }) => !seen.has(phrase.mapId) && seen.add(phrase.mapId))
}

function better(actor: Actor, a: Scored, b: Scored): boolean {
  if (a.score !== b.score) return a.score > b.score
  const ownA = a.phrase.ownerId === actor.ownerId
  const ownB = b.phrase.ownerId === actor.ownerId
  if (ownA !== ownB) return ownA
  if (a.phrase.text.length !== b.phrase.text.length) return a.phrase.text.length > b.phrase.text.length
  return a.phrase.mapId < b.phrase.mapId
}

const plain = (value: string) => ({ value: escapeHtml(value), matchLevel: 'none' as const, matchedWords: [] as string[] })

/**
 * The suggested hit for this search text, shaped as the search's hits are (SPEC §3 search hit) with a `suggestion`
 * member the search box and the screener show as "Suggested"; null when no map matches.
 */
export async function keywordMapSuggestion(deps: Deps, actor: Actor, text: string) {
  if (words(text).length === 0) return null
  const owners = [...new Set([actor.ownerId, PROVIDER_OWNER_ID])]
  const matches = ranked(actor, await heldPhrases(deps.db, owners), text)
  // The best match whose target is live and readable: targets are read only for the best few matches at a time.
  for (let i = 0; i < matches.length; i += TARGETS_READ_AT_ONCE) {
    const batch = matches.slice(i, i + TARGETS_READ_AT_ONCE)
    const rows = await listKeywordMaps(deps.db, { ids: batch.map((m) => m.phrase.mapId), liveTargets: true, limit: batch.length })
    const readable = new Map(rows.filter((row) => canReadSet(actor, { ownerId: row.set.ownerId, isPublic: row.set.isPublic, isStarter: row.set.isStarter })).map((row) => [row.map.id, row]))
    const found = batch.find((m) => readable.has(m.phrase.mapId))
    if (found) return suggestionHit(readable.get(found.phrase.mapId)!, found.phrase.text)
  }
  return null
}

/** A map's target shaped as the search's hits are (SPEC §3 search hit), with the `suggestion` member. */
function suggestionHit(row: KeywordMapListRow, phrase: string) {
  const { map, set, scenario } = row
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
    suggestion: { keywordMapId: map.id, name: map.name, phrase, scenario: scenario ? { id: scenario.id, name: scenario.name } : null },
    _highlightResult: { name: plain(set.name), name_alt: plain(set.nameAlt) },
  }
}

export type KeywordMapHit = ReturnType<typeof suggestionHit>
