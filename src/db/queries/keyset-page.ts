// Lists that grow with a team (members, keyword maps, tags, API keys) are shown a page at a time, each page after the
// last row of the one before (a keyset, so a deep page costs what the first does). The query asks for one row more
// than a page: if it comes, there is a next page, and the last row shown is where it starts.

/** What a paged list query reads: the rows after `afterId` in the list's order, at most `limit` (all without one). */
export interface KeysetParams { afterId?: number; limit?: number }

export interface KeysetPage<T> {
  shown: T[]
  /** The id of the last row shown when more follow, for the "next" link; null on the last page. */
  nextAfter: number | null
}

/** The page of `rows`, read with a limit of `size + 1`. */
export function keysetPage<T extends { id: number }>(rows: T[], size: number): KeysetPage<T> {
  return keysetPageBy(rows, size, (row) => row.id)
}

/** keysetPage of rows whose cursor is not their `id` (a scenario with its run, a key's set with its version). */
export function keysetPageBy<T>(rows: T[], size: number, idOf: (row: T) => number): KeysetPage<T> {
  const shown = rows.slice(0, size)
  return { shown, nextAfter: rows.length > size ? idOf(shown.at(-1)!) : null }
}
