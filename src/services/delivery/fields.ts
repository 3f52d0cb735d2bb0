// Sparse fieldsets (`fields[TYPE]=a,b`), filters (`filter=variables,variables:!system,variables:!constant`) and
// `explain=true` (reasons on each advice item and on the focus) of the Advice API. Parsed once per request into a
// ResponseShape; anything unknown is a 400 naming it, so a typo never silently returns a different response than the
// partner meant.
import { ValidationError } from '../errors.ts'

/** The members of `data` a fieldset can narrow, with the fields each of their items (or the object itself) has. */
export const FIELDSETS = {
  adviceSet: ['id', 'name', 'nameAlt', 'description', 'version'],
  inputRequests: ['nodeId', 'ruleId', 'variable', 'question', 'value', 'valueFormatted'],
  currentFocus: ['nodeId', 'ruleId', 'variable', 'question', 'inputType', 'dataType', 'placeholder', 'description', 'options', 'defaultValue', 'error', 'reasons'],
  advice: ['nodeId', 'ruleId', 'headline', 'text', 'customHeadline', 'tags', 'sources', 'reasons'],
  assumptions: ['nodeId', 'ruleId', 'headline', 'text', 'customHeadline', 'tags', 'sources', 'reasons'],
  examples: ['nodeId', 'ruleId', 'headline', 'text', 'customHeadline', 'tags', 'sources', 'reasons'],
  variables: ['value', 'valueFormatted', 'dataType', 'isSystem', 'isConstant'],
  sources: ['id', 'name', 'uri'],
  errors: ['nodeId', 'ruleId', 'code', 'message', 'variable', 'cause'],
} as const satisfies Record<string, readonly string[]>

type FieldsetType = keyof typeof FIELDSETS
const FIELDSET_TYPES = Object.keys(FIELDSETS) as FieldsetType[]

/** Filters of the variables map: drop it, or drop system variables, or drop constants. */
export const FILTERS = ['variables', 'variables:!system', 'variables:!constant'] as const

export interface ResponseShape {
  fields: Partial<Record<FieldsetType, ReadonlySet<string>>>
  withoutVariables: boolean
  withoutSystemVariables: boolean
  withoutConstants: boolean
  /** explain=true: each advice item and the focus carry their reasons (the key must allow it). */
  explain: boolean
}

export const FULL_SHAPE: ResponseShape = Object.freeze({ fields: Object.freeze({}), withoutVariables: false, withoutSystemVariables: false, withoutConstants: false, explain: false })

const FIELDS_PARAM = /^fields\[([^\]]*)\]$/

/** True for the query parameters this module reads; every other parameter is an input. */
export function isShapeParameter(name: string): boolean {
  return name === 'filter' || name === 'explain' || (name.startsWith('fields[') && FIELDS_PARAM.test(name))
}

export function parseResponseShape(query: Record<string, unknown>): ResponseShape {
  const fields: Partial<Record<FieldsetType, ReadonlySet<string>>> = {}
  let filters: string[] = []
  let explain = false
  for (const name in query) {
    if (!isShapeParameter(name)) continue
    const raw = query[name]
    if (name === 'filter') {
      filters = listOf(name, raw)
      continue
    }
    if (name === 'explain') {
      explain = explainFlag(raw)
      continue
    }
    const type = FIELDS_PARAM.exec(name)![1]!
    if (!Object.hasOwn(FIELDSETS, type)) {
      throw new ValidationError(name, `${name}: "${type}" is not a type with fields. Types: ${FIELDSET_TYPES.join(', ')}.`)
    }
    const known: readonly string[] = FIELDSETS[type as FieldsetType]
    const wanted = listOf(name, raw)
    const unknown = wanted.filter((field) => !known.includes(field))
    if (unknown.length > 0) {
      throw new ValidationError(name, `${name}: ${unknown.map((f) => `"${f}"`).join(', ')} ${unknown.length === 1 ? 'is not a field' : 'are not fields'} of ${type}. Fields: ${known.join(', ')}.`)
    }
    fields[type as FieldsetType] = new Set(wanted)
  }
  const unknownFilters = filters.filter((f) => !(FILTERS as readonly string[]).includes(f))
  if (unknownFilters.length > 0) {
    throw new ValidationError('filter', `filter: ${unknownFilters.map((f) => `"${f}"`).join(', ')} ${unknownFilters.length === 1 ? 'is not a filter' : 'are not filters'}. Filters: ${FILTERS.join(', ')}.`)
  }
  if (Object.keys(fields).length === 0 && filters.length === 0 && !explain) return FULL_SHAPE
  return {
    explain,
    fields,
    withoutVariables: filters.includes('variables'),
    withoutSystemVariables: filters.includes('variables:!system'),
    withoutConstants: filters.includes('variables:!constant'),
  }
}

/** explain=true or explain=false in the query (a POST body's boolean is read by the route). */
function explainFlag(raw: unknown): boolean {
  if (raw === 'true' || raw === true) return true
  if (raw === 'false' || raw === false) return false
  throw new ValidationError('explain', 'explain: must be true or false.')
}

/** Comma-separated values; a repeated parameter adds to the list. Empty entries are ignored. */
function listOf(name: string, raw: unknown): string[] {
  const values = Array.isArray(raw) ? raw : [raw]
  if (values.some((v) => typeof v !== 'string')) throw new ValidationError(name, `${name}: must be a comma-separated list.`)
  return (values as string[]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '')
}

/** Keeps only the wanted fields of one item; the item itself when no fieldset was asked for. */
export function pick<T extends object>(item: T, wanted: ReadonlySet<string> | undefined): Partial<T> {
  if (wanted === undefined) return item
  const out: Partial<T> = {}
  for (const field of wanted) {
    if (Object.hasOwn(item, field)) (out as Record<string, unknown>)[field] = (item as Record<string, unknown>)[field]
  }
  return out
}
