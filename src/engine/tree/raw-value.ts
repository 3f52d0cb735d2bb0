import type { Value } from '../value.ts'

/** Inputs without a declared data type keep their JSON kind; anything else is not a value. */
export function rawToValue(raw: unknown): Value | undefined {
  if (raw === null || typeof raw === 'number' || typeof raw === 'string' || typeof raw === 'boolean') {
    return typeof raw === 'number' && !Number.isFinite(raw) ? undefined : raw
  }
  if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? undefined : raw
  if (Array.isArray(raw)) {
    const items: Value[] = []
    for (const item of raw) {
      const value = rawToValue(item)
      if (value === undefined) return undefined
      items.push(value)
    }
    return items
  }
  return undefined
}
