// The advice sets a form offers (an API key's allowed sets, a keyword map's target). A big team's library does not fit
// in one select: the form lists the first SET_CHOICES_LIMIT by name, or those whose name holds the text looked for,
// and always the sets already chosen (first), so that saving the form never drops or changes a choice it could not list.
import { findAdviceSetsByIds, listAdviceSetRows, type AdviceSetListRow } from '../../db/queries/advice-sets.ts'
import { setVisibility } from '../accounts/visibility.ts'
import type { Actor, Deps } from '../context.ts'

export const SET_CHOICES_LIMIT = 500

export interface SetChoices {
  /** The chosen sets, then the others listed, each part by name. */
  sets: AdviceSetListRow[]
  /** What the form's finder (views/partials/_set-finder.eta) shows. */
  finder: SetFinder
}

export interface SetFinder {
  /** More sets match than are listed: the form offers to look for one by name. */
  more: boolean
  /** The text the list was narrowed by ('' for none). */
  find: string
  limit: number
}

/** `limit`: how many to list besides the chosen ones (SET_CHOICES_LIMIT unless a form lists more). */
export async function setChoices(deps: Deps, actor: Actor, p: { chosen: number[]; find?: string; limit?: number }): Promise<SetChoices> {
  const limit = p.limit ?? SET_CHOICES_LIMIT
  const visibility = setVisibility(actor)
  const find = (p.find ?? '').trim()
  const rows = await listAdviceSetRows(deps.db, { visibility, sort: 'name', offset: 0, limit: limit + 1, ...(find === '' ? {} : { text: find }) })
  const listed = rows.slice(0, limit)
  const chosen = new Set(p.chosen)
  const listedIds = new Set(listed.map((s) => s.id))
  const unlisted = await findAdviceSetsByIds(deps.db, p.chosen.filter((id) => !listedIds.has(id)), visibility)
  // The chosen sets first, where a long list shows them without scrolling; then the rest, by name as listed.
  const first = [...listed.filter((s) => chosen.has(s.id)), ...unlisted].sort(byName)
  return { sets: [...first, ...listed.filter((s) => !chosen.has(s.id))], finder: { more: rows.length > limit, find, limit } }
}

/** As the list's own order: lower(name) in the database's C collation, compared by code unit, then id. */
function byName(a: AdviceSetListRow, b: AdviceSetListRow): number {
  const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()]
  return x < y ? -1 : x > y ? 1 : a.id - b.id
}

/** The set ids a form's value names (one id or a list of them), ignoring what is not an id. */
export function chosenSetIds(value: unknown): number[] {
  return [value].flat().map((v) => Number(v)).filter((id) => Number.isSafeInteger(id) && id > 0)
}
