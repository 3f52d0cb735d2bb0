// What the tag picker offers for a typed text: the tags whose name contains it (GET /api/tags?q=), by name, without
// those already on the set.
import { callApi } from '../shared/api.ts'
import { isRecord } from '../shared/guards.ts'

export interface TagOption { id: number; label: string }

/** How many suggestions are shown at once. */
export const SHOWN = 10

export async function tagSuggestions(text: string, exclude: ReadonlySet<number>, signal: AbortSignal): Promise<TagOption[]> {
  const query = new URLSearchParams({ q: text.trim(), limit: String(SHOWN + exclude.size) })
  const body = await callApi(`/api/tags?${query}`, { signal })
  const rows = isRecord(body) && Array.isArray(body.data) ? body.data : []
  return rows
    .flatMap((row) => (isRecord(row) && typeof row.id === 'number' && typeof row.label === 'string' ? [{ id: row.id, label: row.label }] : []))
    .filter((tag) => !exclude.has(tag.id))
    .slice(0, SHOWN)
}
