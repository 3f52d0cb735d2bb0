// Request fuzzing from a route's JSON schema (issue 18): values of the right shape, hostile variants of each field
// (wrong types, huge and NUL-bearing text, deep nesting, prototype keys), and raw bodies no JSON encoder would write
// (invalid UTF-8, `__proto__` keys, bad JSON). Deterministic: every choice comes from a seeded generator.
import fc from 'fast-check'

export type JsonSchema = {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean | JsonSchema
  items?: JsonSchema
  enum?: unknown[]
  const?: unknown
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  minLength?: number
  maxLength?: number
  pattern?: string
  format?: string
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  minItems?: number
  maxItems?: number
  default?: unknown
}

/** mulberry32: small, fast and seedable. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

export interface GenContext {
  random: () => number
  /** Real ids for a field or parameter name (the objects of the signed-in user's owner), or undefined. */
  idFor: (name: string) => unknown
}

const pick = <T>(ctx: GenContext, items: readonly T[]): T => items[Math.floor(ctx.random() * items.length)]!

const WORDS = ['Pension', 'Age', 'plan', 'Ünïcode', 'x', '日本', 'a b', '', 'email@example.test', '2024-05-01', 'https://example.com/a', '{{Age}} > 3']
const FORMATS: Record<string, string[]> = {
  email: ['ann@example.test'], date: ['2024-05-01'], 'date-time': ['2024-05-01T10:00:00Z'], uri: ['https://example.com/x'],
  url: ['https://example.com/x'], uuid: ['5f0c0c66-5f35-4a8e-9a1e-6a4c1f1d2a3b'],
}

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type
  if (schema.type) return [schema.type]
  return []
}

function stringFor(schema: JsonSchema, ctx: GenContext): string {
  if (schema.format && FORMATS[schema.format]) return pick(ctx, FORMATS[schema.format]!)
  if (schema.pattern) {
    try {
      const [value] = fc.sample(fc.stringMatching(new RegExp(schema.pattern)), { seed: Math.floor(ctx.random() * 2 ** 31), numRuns: 1 })
      if (value !== undefined) return value.slice(0, schema.maxLength ?? Infinity)
    } catch { /* a pattern fast-check cannot read: fall back to words */ }
  }
  let text = pick(ctx, WORDS)
  const min = schema.minLength ?? 0
  const max = schema.maxLength ?? 60
  while (text.length < min) text += 'x'
  return text.slice(0, Math.max(min, max))
}

function numberFor(schema: JsonSchema, integer: boolean, ctx: GenContext): number {
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : pick(ctx, [0, 1, -5]))
  const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : min + pick(ctx, [0, 10, 1000]))
  const value = min + ctx.random() * Math.max(0, max - min)
  return integer ? Math.floor(value) : value
}

/** A value that fits `schema` (as far as a small generator can tell); `name` lets id fields take real ids. */
export function validValue(schema: JsonSchema, ctx: GenContext, name = '', depth = 0): unknown {
  const real = name ? ctx.idFor(name) : undefined
  if (real !== undefined && ctx.random() < 0.85) return real
  if (schema.const !== undefined) return schema.const
  if (schema.enum) return pick(ctx, schema.enum)
  const branches = schema.anyOf ?? schema.oneOf
  if (branches?.length) return validValue(pick(ctx, branches), ctx, name, depth + 1)
  if (schema.allOf?.length) return validValue(schema.allOf[0]!, ctx, name, depth + 1)
  const types = typesOf(schema)
  const nonNull = types.filter((t) => t !== 'null')
  const type = types.length === 0 ? pick(ctx, ['string', 'integer', 'boolean', 'null']) : nonNull.length && ctx.random() < 0.9 ? pick(ctx, nonNull) : pick(ctx, types)
  switch (type) {
    case 'string': return stringFor(schema, ctx)
    case 'integer': return numberFor(schema, true, ctx)
    case 'number': return numberFor(schema, false, ctx)
    case 'boolean': return ctx.random() < 0.5
    case 'null': return null
    case 'array': {
      const count = Math.min(schema.maxItems ?? 3, (schema.minItems ?? 0) + Math.floor(ctx.random() * 3))
      return Array.from({ length: count }, () => (schema.items ? validValue(schema.items, ctx, name.replace(/s$/, ''), depth + 1) : pick(ctx, WORDS)))
    }
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const [key, sub] of Object.entries(schema.properties ?? {})) {
        if (schema.required?.includes(key) || ctx.random() < 0.6) out[key] = validValue(sub, ctx, key, depth + 1)
      }
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object' && depth < 4) {
        out[pick(ctx, ['Age', 'Name', 'Extra'])] = validValue(schema.additionalProperties, ctx, '', depth + 1)
      } else if (schema.additionalProperties === true || (schema.additionalProperties === undefined && !schema.properties)) {
        out[pick(ctx, ['Age', 'Name'])] = pick(ctx, [42, 'text', true, null])
      }
      return out
    }
    default: return null
  }
}

/** 10,000-deep nesting as JSON text (JSON.stringify would overflow the stack on such a value first). */
export const DEEP_ARRAY = '['.repeat(10_000) + ']'.repeat(10_000)
export const DEEP_OBJECT = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000)
/** Just under the 1 MiB body limit, so the value reaches validation and the handler. */
export const HUGE_TEXT = 'x'.repeat(1_000_000)

/** `count` items of `items`, chosen by `random`, in their original order. */
export function sampleOf<T>(random: () => number, items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items]
  const chosen = new Set<number>()
  while (chosen.size < count) chosen.add(Math.floor(random() * items.length))
  return [...chosen].sort((a, b) => a - b).map((i) => items[i]!)
}

/** Every field gets these: text PostgreSQL cannot store, prototype keys, and one wrong shape of each kind. */
const ALWAYS = ['"a\\u0000b"', '"\\ud800"', '{"__proto__":{"polluted":"yes"}}', '{"constructor":{"prototype":{"polluted":"yes"}}}', 'null', '[1,"a",null]']
/** Each field also gets a seeded sample of these: other wrong types, extremes and awkward text. */
const SOMETIMES = ['true', '"text"', '12', '-1', '1.5', '1e308', '-1e308', '9007199254740993', '[]', '{}', '"\\u0000"',
  '"\\udfff x"', '"‮<script>alert(1)</script>"', '"   "', '""', '"__proto__"', '"constructor"', '["__proto__"]',
  '"99999999999999999999999"', '"-0"', '"1e400"', '"NaN"']

/** Hostile values for one field, as JSON text: wrong types, extremes, NUL and lone surrogates, prototype keys, depth. */
export function hostileFieldValues(schema: JsonSchema, random: () => number, extra = 6): string[] {
  const types = typesOf(schema)
  const values = [...ALWAYS, ...sampleOf(random, SOMETIMES, extra)]
  if (types.includes('string') || types.length === 0) values.push(JSON.stringify('y'.repeat(20_000)))
  if (types.includes('object') || types.includes('array') || types.length === 0) values.push(DEEP_ARRAY, DEEP_OBJECT)
  return values
}

export interface RawBody { label: string; payload: string | Buffer; contentType?: string }

/** Bodies that are hostile as a whole: raw bytes and texts no JSON encoder would produce. */
export function hostileBodies(valid: Record<string, unknown> | unknown): RawBody[] {
  const json = JSON.stringify(valid ?? {})
  const inner = json.startsWith('{') && json.length > 2 ? json.slice(1, -1) + ',' : ''
  const validText = json.startsWith('{') ? json : '{}'
  // The first eleven are always sent; the rest are sampled.
  return [
    { label: 'not JSON', payload: 'name=x&y=1' },
    { label: 'deep array body', payload: DEEP_ARRAY },
    { label: 'deep object body', payload: DEEP_OBJECT },
    { label: '__proto__ key', payload: `{${inner}"__proto__":{"polluted":"yes"}}` },
    { label: 'constructor.prototype key', payload: `{${inner}"constructor":{"prototype":{"polluted":"yes"}}}` },
    { label: 'invalid UTF-8', payload: Buffer.concat([Buffer.from(`{${inner}"name":"a`), Buffer.from([0xff, 0xfe, 0xc0, 0xaf]), Buffer.from('b"}')]) },
    { label: 'overlong UTF-8 NUL', payload: Buffer.concat([Buffer.from(`{${inner}"x":"`), Buffer.from([0xc0, 0x80]), Buffer.from('"}')]) },
    { label: 'NUL byte outside strings', payload: validText.replace('{', '{\u0000') },
    { label: 'over the body limit', payload: `{"x":"${'z'.repeat(1_100_000)}"}` },
    { label: 'empty body', payload: '' },
    { label: 'JSON sent as text/plain', payload: validText, contentType: 'text/plain' },
    { label: 'truncated JSON', payload: validText.slice(0, -1) },
    { label: 'a bare string', payload: '"x"' },
    { label: 'a bare number', payload: '1e400' },
    { label: 'null', payload: 'null' },
    { label: 'an array', payload: '[]' },
    { label: 'duplicate keys', payload: `{${inner}${inner}"zz":1,"zz":2}`.replace(',}', '}') },
    { label: 'BOM then JSON', payload: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(validText)]) },
    { label: 'JSON with a strange charset', payload: validText, contentType: 'application/json; charset=latin1' },
    { label: 'form content type with JSON', payload: validText, contentType: 'application/x-www-form-urlencoded' },
  ]
}

/** Hostile path parameter values, URL-encoded: the first five always, a sample of the rest. */
export const HOSTILE_PARAMS = [
  '%00', 'a%00b', '%ED%A0%80', '__proto__', 'x'.repeat(5000),
  'abc', '-1', '0', '1.5', '99999999999999999999', '1e308', '%C0%AF', '%FF%FE', 'constructor', 'prototype', '%2e%2e%2f%2e%2e',
  '%20', "1'%20OR%20'1'='1", '%E2%80%AE', 'null', 'undefined',
]

/** Hostile query-string values (URL-encoded): the first four always, a sample of the rest. */
export const HOSTILE_QUERY_VALUES = [
  'a%00b', '%ED%A0%80', 'x'.repeat(5000), '__proto__',
  '', 'abc', '-1', '1e308', '99999999999999999999', '%00', '%FF', '[object Object]', 'true',
]

/** The always-sent head of `list` plus a seeded sample of its tail. */
export function hostileSample<T>(random: () => number, list: readonly T[], always: number, extra: number): T[] {
  return [...list.slice(0, always), ...sampleOf(random, list.slice(always), extra)]
}
