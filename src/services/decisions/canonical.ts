// Canonical JSON for recorded inputs: keys sorted at every level, dates as ISO text, so equal inputs are equal bytes
// (and hash alike).
import type { Value } from '../../engine/index.ts'

export type CanonicalValue = string | number | boolean | null | CanonicalValue[] | { [key: string]: CanonicalValue }

export function canonicalValue(value: Value | unknown): CanonicalValue {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString()
  if (Array.isArray(value)) return value.map(canonicalValue)
  if (value !== null && typeof value === 'object') {
    const out: Record<string, CanonicalValue> = {}
    for (const key of Object.keys(value).sort()) out[key] = canonicalValue((value as Record<string, unknown>)[key])
    return out
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return null
  if (value === undefined) return null
  return value as string | number | boolean | null
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonicalValue(value))
}
