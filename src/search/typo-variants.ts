// A query word's one-typo matches, found by looking its one-edit variants up in the lexicon: some hundreds of index
// probes, whatever the lexicon's size. The patterns the trigram index serves need three letters in a row, and a short
// word's halves have fewer ("pens": "p%" or "%ns%"), so that lookup read the whole lexicon (500,000 terms on the big
// tenant: 24 ms a keystroke), and kept an arbitrary 2,000 of a common beginning's terms.
/** The letters a variant may gain or change to. Words of other letters keep the pattern lookup (postgres.ts). */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'
/** Longer words are looked up by pattern: their halves are long enough for the trigram index. */
const MAX_WORD_LENGTH = 16

export function looksUpVariants(word: string): boolean {
  return word.length <= MAX_WORD_LENGTH && /^[a-z0-9]+$/.test(word)
}

/** Every string one edit from `word` (a letter left out, changed, added, or two neighbours swapped), not `word`. */
export function oneEditVariants(word: string): Set<string> {
  const variants = new Set<string>()
  for (let i = 0; i <= word.length; i++) {
    const before = word.slice(0, i)
    const after = word.slice(i)
    for (const letter of ALPHABET) variants.add(before + letter + after)
    if (i === word.length) continue
    variants.add(before + after.slice(1))
    for (const letter of ALPHABET) variants.add(before + letter + after.slice(1))
    if (i + 1 < word.length) variants.add(before + after[1] + after[0] + after.slice(2))
  }
  variants.delete(word)
  return variants
}

/**
 * What to look up for `word`'s typo matches (typoMatch): terms equal to a variant; and, for a word being typed, terms
 * that a variant as long as the word or one longer begins (that variant is then the match, matched as a prefix in
 * turn). A variant that begins with the word itself is no typo: the word as typed reaches it already.
 */
export function typoLookups(word: string, prefix: boolean): { equal: string[]; beginning: string[] } {
  const equal: string[] = []
  const beginning: string[] = []
  for (const variant of oneEditVariants(word)) {
    if (!prefix) equal.push(variant)
    else if (variant.length < word.length) equal.push(variant)
    else if (!variant.startsWith(word)) beginning.push(variant)
  }
  return { equal, beginning }
}
