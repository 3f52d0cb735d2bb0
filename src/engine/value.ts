/** A value the engine computes with. `null` means "no value" (blank answer, unset, or nothing to compute). */
export type Value = number | string | boolean | Date | Value[] | null

const MS_PER_DAY = 86_400_000

/** Plain words for a value's kind, used in messages authors read ("Cannot add text and a date"). */
export function describeType(value: Value): string {
  if (value === null) return 'no value'
  switch (typeof value) {
    case 'number':
      return 'a number'
    case 'string':
      return 'text'
    case 'boolean':
      return 'true/false'
    default:
      return value instanceof Date ? 'a date' : 'a list'
  }
}

/** Equality used by ==, != and .includes: same kind and same content; values of different kinds are never equal. */
export function valuesEqual(a: Value, b: Value): boolean {
  if (a === b) return true
  if (a === null || b === null) return false
  if (a instanceof Date) return b instanceof Date && a.getTime() === b.getTime()
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!valuesEqual(a[i] as Value, b[i] as Value)) return false
    return true
  }
  return false
}

/** Blank = no value, text that is empty or only spaces, or an empty list. */
export function isBlank(value: Value): boolean {
  if (value === null) return true
  if (typeof value === 'string') return value.trim() === ''
  return Array.isArray(value) && value.length === 0
}

/** A date at UTC midnight prints as YYYY-MM-DD; one with a time of day keeps its full ISO form. */
export function dateToText(date: Date): string {
  const iso = date.toISOString()
  return date.getTime() % MS_PER_DAY === 0 ? iso.slice(0, 10) : iso
}

/** The text form of a value, used by string concatenation and text(x); no value becomes ''. */
export function valueToText(value: Value): string {
  if (value === null) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (value instanceof Date) return dateToText(value)
  return value.map(valueToText).join(', ')
}
