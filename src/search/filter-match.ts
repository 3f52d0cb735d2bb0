// Whether one hit satisfies a filter, checked in memory. Hits that do not come from the index (a keyword map's
// suggested target) must obey the same client refinements as the index's own hits, so that the search box and the
// screener — which always refines — show the same thing for the same text.
import type { Condition, Filter } from './types.ts'

type HitFields = Record<string, unknown>

/** The value of a dotted field (`adviceset.isStarter`) of a hit. */
export function fieldValue(hit: HitFields, field: Condition['field']): unknown {
  let value: unknown = hit
  for (const part of field.split('.')) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as HitFields)[part]
  }
  return value
}

/** Facet values arrive as text ("true", "7", "Advice Set"); documents hold booleans, numbers, strings and lists. */
function holds(hit: HitFields, condition: Condition): boolean {
  const value = fieldValue(hit, condition.field)
  const wanted = String(condition.value)
  return Array.isArray(value) ? value.some((v) => String(v) === wanted) : value !== undefined && value !== null && String(value) === wanted
}

/** Every clause holds; a clause holds when any of its conditions does (as the indexes read `Filter`). */
export function hitMatchesFilter(hit: HitFields, filter: Filter): boolean {
  return filter.every((clause) => clause.some((condition) => holds(hit, condition)))
}
