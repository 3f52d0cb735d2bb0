// Ids in paths and bodies: anything but a positive whole number is "Invalid item id format." (SPEC §8).
// The route schemas take ids as text (or, in bodies, as anything: schemas.ts IdString, AnyId) and these turn them
// into numbers, so every malformed id gets the same message naming its field rather than a schema error.
import { ValidationError } from '../../services/errors.ts'

export function itemId(raw: unknown, field = 'id'): number {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw : ''
  const id = Number(text)
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(id) || id < 1) throw new ValidationError(field, 'Invalid item id format.')
  return id
}

export function itemIds(raw: unknown, field = 'ids'): number[] {
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',').filter(Boolean) : raw === undefined ? [] : [raw]
  return [...new Set(list.map((v) => itemId(v, field)))]
}
