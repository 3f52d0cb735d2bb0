// Input no handler should ever see, refused with a 400 that names the problem: JSON bodies that are not UTF-8, nest
// deeper than any form of ours, or carry prototype keys; text anywhere (params, query, bodies) holding NUL characters
// or lone UTF-16 surrogates; whole numbers beyond PostgreSQL's integer. Each would otherwise fail as a 500. And a body
// that declares more bytes than its route accepts, refused with a 413 before any of it is read. (Multipart bodies are
// read by their handlers: http/uploads.ts applies the same checks to their parts.)
import fp from 'fastify-plugin'
import secureJson from 'secure-json-parse'
import type { FastifyRequest } from 'fastify'
import type { IncomingMessage } from 'node:http'
import { DomainError, ValidationError } from '../../services/errors.ts'
import { MAX_JSON_DEPTH } from '../../services/validate.ts'

const utf8 = new TextDecoder('utf-8', { fatal: true })

class BadBodyError extends ValidationError {
  constructor(message: string) {
    super('body', message)
  }
}

/** A body larger than its route accepts: refused unread when its length is declared, cut off when it is streamed. */
export class BodyTooLargeError extends DomainError {
  constructor(limit: number) {
    super('BODY_TOO_LARGE', `The request body is larger than this address accepts (at most ${megabytes(limit)}).`, 413)
  }
}

/** How much more of a refused body is read (and dropped) before the connection is closed. */
const LINGER_BYTES = 8 * 1024 * 1024

/**
 * After a body is refused: whatever read it stops, the rest is read and dropped up to LINGER_BYTES, then the
 * connection is closed. Closing at once would reset it while the client is still sending, and a client often loses
 * the answer then; reading on without a bound would let a body of any size (or a chunked one without end) through.
 */
export function dropRestOfBody(raw: IncomingMessage): void {
  if (raw.complete || raw.destroyed) return
  raw.unpipe()
  let dropped = 0
  raw.on('data', (chunk: Buffer) => {
    dropped += chunk.length
    if (dropped > LINGER_BYTES) raw.destroy()
  })
  raw.resume()
}

function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB` : `${Math.ceil(bytes / 1024)} KB`
}

/** Deepest nesting of `[`/`{` in JSON text, counted outside strings; stops counting once over the limit. */
function tooDeep(text: string): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92 /* \ */) i++
      else if (c === 34 /* " */) inString = false
    } else if (c === 34) {
      inString = true
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > MAX_JSON_DEPTH) return true
    } else if (c === 93 /* ] */ || c === 125 /* } */) {
      depth--
    }
  }
  return false
}

/** With the u flag a surrogate pair reads as one code point, so only a lone half matches. */
const LONE_SURROGATE = /\p{Cs}/u

/** What is wrong with a piece of text, or null: NUL characters and lone surrogates cannot be stored. */
function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL characters (\\u0000).'
  if (LONE_SURROGATE.test(text)) return 'is not valid Unicode text (it contains a lone surrogate).'
  return null
}

/** Names of a whole input: a field directly inside is named alone ("name", not "body.name"). */
const WHOLE_INPUTS = new Set(['body', 'params', 'query'])

/**
 * Parsed JSON, forms and queries; never a Buffer or stream some parser might hand over. The query parser's objects
 * come from a constructor whose prototype has no prototype, so "plain" is: at most one prototype, and that one bare.
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false
  const proto = Object.getPrototypeOf(value)
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null
}

/** Throws a ValidationError naming the first string (value or key) in `value` that cannot be stored. */
export function assertStorableText(value: unknown, path: string): void {
  if (typeof value === 'string') {
    const problem = textProblem(value)
    if (problem) throw new ValidationError(path, `${path}: ${problem}`)
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) assertStorableText(value[i], `${path}.${i}`)
  } else if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      const keyProblem = textProblem(key)
      if (keyProblem) throw new ValidationError(path, `${path}: a field name ${keyProblem}`)
      assertStorableText(item, WHOLE_INPUTS.has(path) ? key : `${path}.${key}`)
    }
  }
}

function parseJsonBody(_request: FastifyRequest, raw: Buffer): unknown {
  if (raw.length === 0) throw new BadBodyError('The request body is empty; send JSON, or no Content-Type header.')
  let text: string
  try {
    text = utf8.decode(raw)
  } catch {
    throw new BadBodyError('The request body is not valid UTF-8 text.')
  }
  if (tooDeep(text)) throw new BadBodyError(`The request body is nested too deeply (more than ${MAX_JSON_DEPTH} levels).`)
  let body: unknown
  try {
    body = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' })
  } catch (error) {
    if (/forbidden (prototype|constructor) property/.test((error as Error).message)) {
      throw new BadBodyError('The request body uses a reserved field name (__proto__ or constructor.prototype).')
    }
    throw new BadBodyError(`The request body is not valid JSON (${(error as Error).message}).`)
  }
  assertStorableText(body, 'body')
  return body
}

/** PostgreSQL's integer: every whole number a route accepts is stored in, or compared with, such a column. */
const INT_MIN = -2_147_483_648
const INT_MAX = 2_147_483_647

/**
 * Gives every integer in a route schema PostgreSQL's bounds where it states none, so `?tag=99999999999999999999` is a
 * 400 naming `tag` rather than a failed query. Walks properties, items and unions; tighter bounds are kept.
 */
export function boundIntegers(schema: unknown, seen = new Set<object>()): void {
  if (schema === null || typeof schema !== 'object' || seen.has(schema)) return
  seen.add(schema)
  const node = schema as Record<string, unknown>
  const type = node.type
  if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) {
    if (node.minimum === undefined && node.exclusiveMinimum === undefined) node.minimum = INT_MIN
    if (node.maximum === undefined && node.exclusiveMaximum === undefined) node.maximum = INT_MAX
  }
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) for (const item of value) boundIntegers(item, seen)
    else boundIntegers(value, seen)
  }
}

export default fp(async function inputGuardPlugin(app) {
  // First of all: a declared length over the route's limit is answered before the session, the user or any of the
  // body is read (an upload declaring 10 GB used to wait for its bytes).
  app.addHook('onRequest', (request, _reply, done) => {
    const declared = request.headers['content-length']
    const limit = request.routeOptions.bodyLimit
    done(declared !== undefined && Number(declared) > limit ? new BodyTooLargeError(limit) : undefined)
  })
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Record<string, unknown> | undefined
    if (schema) for (const part of ['params', 'querystring', 'body']) boundIntegers(schema[part])
  })
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, raw, done) => {
    try {
      done(null, parseJsonBody(request, raw as Buffer))
    } catch (error) {
      done(error as Error, undefined)
    }
  })
  // Before schema validation, so the answer names the problem rather than a pattern the text failed. A callback hook:
  // it runs on every request (the Advice API's too) and needs no promise.
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      if (request.params) assertStorableText(request.params, 'params')
      if (request.query) assertStorableText(request.query, 'query')
      // JSON bodies were checked while parsing; forms and other parsed bodies are checked here.
      if (request.body && typeof request.body === 'object' && !request.headers['content-type']?.includes('json')) assertStorableText(request.body, 'body')
    } catch (error) {
      done(error as Error)
      return
    }
    done()
  })
}, { name: 'input-guard' })
