// The cursor of a keyset-paged list page (db/queries/keyset-page.ts) as the "next" link gives it: the id of the last
// row shown. Anything else is refused in words that name the query parameter.
import { Type } from '@fastify/type-provider-typebox'
import { ValidationError } from '../services/errors.ts'

/** A cursor in a page's query schema; pageCursor reads it. */
export const PageCursorParam = Type.Optional(Type.String({ maxLength: 20 }))

export function pageCursor(raw: string | undefined, field: string): number | undefined {
  if (raw === undefined) return undefined
  if (!/^[1-9]\d{0,14}$/.test(raw)) throw new ValidationError(field, `${field}: give the id of the last one shown, a whole number (the link under the list has it).`)
  return Number(raw)
}
