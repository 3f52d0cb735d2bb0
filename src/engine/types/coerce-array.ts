import type { Value } from '../value.ts'
import { findOption, listChoices } from './coerce-choice.ts'
import { accepted, quote, rejected, type CoerceResult } from './result.ts'

const HINT = 'Enter a list of values separated by commas, like apples, pears, plums; each item is text, a number or yes/no'

/**
 * Lists come as JSON arrays (from the API) or as text: a JSON array literal, or items separated by commas (from a
 * form). With options the list is a multi-choice answer and every item must be one of them.
 */
export function coerceArray(raw: unknown, options: readonly string[] | undefined): CoerceResult {
  const items = listItems(raw)
  if (items === undefined) return rejected('INPUT_INVALID_LIST', `${HINT}.`)
  if (options === undefined || options.length === 0) return accepted(items)
  const chosen: Value[] = []
  for (const item of items) {
    const option = findOption(String(item), options)
    if (option === undefined) {
      return rejected('INPUT_NOT_AN_OPTION', `${quote(String(item))} is not one of the choices: ${listChoices(options)}.`)
    }
    chosen.push(option)
  }
  return accepted(chosen)
}

function listItems(raw: unknown): Value[] | undefined {
  if (Array.isArray(raw)) return raw.every(isListItem) ? raw : undefined
  if (typeof raw === 'number' || typeof raw === 'boolean') return [raw]
  if (typeof raw !== 'string') return undefined
  const text = raw.trim()
  if (text.startsWith('[')) return parseJsonList(text)
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
}

function parseJsonList(text: string): Value[] | undefined {
  try {
    const parsed: unknown = JSON.parse(text)
    return Array.isArray(parsed) && parsed.every(isListItem) ? parsed : undefined
  } catch {
    return undefined
  }
}

function isListItem(item: unknown): item is string | number | boolean | Date {
  if (typeof item === 'number') return Number.isFinite(item)
  if (item instanceof Date) return !Number.isNaN(item.getTime())
  return typeof item === 'string' || typeof item === 'boolean'
}
