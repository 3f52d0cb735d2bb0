// Ids in paths and bodies: anything but a positive whole number is "Invalid item id format." (SPEC §8).
import { ValidationError } from '../../services/errors.ts'

export const idParamSchema = { type: 'object', properties: { id: { type: 'string', maxLength: 20 } }, required: ['id'] } as const

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
