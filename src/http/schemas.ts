// TypeBox pieces shared by the route schemas of pages and /api. Each emits exactly the JSON schema the routes
// validated with before they were typed, so validation messages (and the OpenAPI document) stay as they were.
import { Type, type Static, type TSchema, type TUnsafe } from '@fastify/type-provider-typebox'

/** An id as it comes in a path or a query; itemId() (api/ids.ts) turns it into a number or names the field. */
export const IdString = Type.String({ maxLength: 20 })
/** An id in a JSON body: a number or a string, checked by itemId(). */
export const AnyId = Type.Unknown()
export const IdParams = Type.Object({ id: IdString })

/** `{ type: 'string', enum: [...] }`, typed as the union of its values. */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options })
}

/** `{ type: 'object' }`: any JSON object, its members read as unknown (answers by variable name, form bodies). */
export function AnyObject(options: Record<string, unknown> = {}): TUnsafe<Record<string, unknown>> {
  return Type.Unsafe<Record<string, unknown>>({ type: 'object', ...options })
}

export type { TSchema }

/** `{ type: [schema's type, 'null'] }`: the schema's value or null (a left-out body is validated as null). */
export function OrNull<T extends TSchema & { type: string }>(schema: T): TUnsafe<Static<T> | null> {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] })
}

/** A posted HTML form, checked field by field where it is read; a POST without a body leaves it undefined. */
export const FormBody = Type.Unsafe<Record<string, unknown> | undefined>({})
