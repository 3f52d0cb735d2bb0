// Short prefixes as words of their own: every word also gives the search tsvector its first one to six letters
// ("^p", "^pe", …, "^pensio"). A word being typed that short would otherwise make the index merge the postings of
// every word it begins — most of the vocabulary for one letter, tens of thousands of documents for a common
// word's first four or five — into a bitmap before the other words can narrow anything, where one posting list
// answers it and lets the index skip to the documents the other words and the filter allow. Beyond six letters a
// prefix begins few words. Query words are runs of letters and digits, so nothing typed can produce a token (they
// start with "^").
export const MAX_PREFIX_TOKEN_LENGTH = 6

export function prefixToken(word: string): string {
  return `^${word}`
}

/** The prefix tokens of every word in `terms` (space-separated folded words), space-separated. */
export function prefixTokens(terms: string): string {
  const tokens = new Set<string>()
  for (const word of terms.split(' ')) {
    for (let n = 1; n <= Math.min(MAX_PREFIX_TOKEN_LENGTH, word.length); n++) tokens.add(prefixToken(word.slice(0, n)))
  }
  return [...tokens].join(' ')
}
