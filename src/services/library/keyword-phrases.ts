// The keyword maps' phrases as search matches them (words folded once), held per group of owners for as long as none
// of their maps changes. Search asks on every keystroke; before this it read all of an owner's maps with their targets
// and split every phrase again (2,000 maps, bench:scale: the type-ahead's p50 went from 74 ms to 60, the library's
// search page from 26 ms to 7.5). Whether the held phrases are still current is asked of the database each time
// (keywordMapsStamp), so a map changed through another instance counts at once.
import type { Db } from '../../db/client.ts'
import { keywordMapPhrases, keywordMapsStamp } from '../../db/queries/keyword-maps.ts'
import { words } from '../../search/text.ts'

export interface HeldPhrase { mapId: number; ownerId: string; text: string; words: string[] }

interface Held { stamp: string; phrases: HeldPhrase[] }

/** Groups of owners held at most: a user's team and the provider make one group, so this bounds distinct teams. */
const MAX_GROUPS = 500

const heldByDb = new WeakMap<Db, Map<string, Held>>()

/** Every live phrase of these owners' maps, with its folded words. */
export async function heldPhrases(db: Db, ownerIds: string[]): Promise<HeldPhrase[]> {
  let groups = heldByDb.get(db)
  if (!groups) heldByDb.set(db, groups = new Map())
  const group = [...ownerIds].sort().join('|')
  const stamp = await keywordMapsStamp(db, ownerIds)
  const held = groups.get(group)
  if (held?.stamp === stamp) return held.phrases
  const phrases = (await keywordMapPhrases(db, ownerIds)).flatMap((map) => map.phrases.map((text) => ({ mapId: map.id, ownerId: map.ownerId, text, words: words(text) })))
  // Oldest load first out: a Map keeps insertion order, and a group loaded again goes to the end.
  groups.delete(group)
  if (groups.size >= MAX_GROUPS) groups.delete(groups.keys().next().value!)
  groups.set(group, { stamp, phrases })
  return phrases
}
