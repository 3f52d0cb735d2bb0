// An external API definition as authors write it (form or JSON) → the settings that are stored, each field checked
// with a message naming it; and the views of a stored definition that may leave the server (secret header values
// never do: they are stored sealed and shown masked).
import { DATA_TYPES, NAME_PATTERN, isDataType, parseTemplate } from '../../engine/index.ts'
import type { ResponseMappingEntry, StoredHeader } from '../../db/schema/index.ts'
import type { ExternalApiRow, ExternalApiSettings } from '../../db/queries/external-apis.ts'
import { DEFAULT_TIMEOUT_MS, FORBIDDEN_REQUEST_HEADERS, MAX_TIMEOUT_MS } from '../../net/index.ts'
import { ValidationError } from '../errors.ts'
import { checkFields, optionalText, requireText } from '../validate.ts'
import { MASK, type RequestHeader, type SendableDefinition } from './api-request.ts'
import { parsePath } from './response-mapping.ts'
import { seal, unseal } from './secrets.ts'

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
export const MIN_TIMEOUT_MS = 100
export const DEFAULT_CACHE_TTL_SECONDS = 300
export const MAX_CACHE_TTL_SECONDS = 86_400
const MAX_HEADERS = 30
const MAX_MAPPINGS = 50
const TEMPLATE_LIMIT = 100_000
const SECRET_PURPOSE = 'external-api-headers'
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/

/** What a form or the API sends; every field is checked here. */
export interface ExternalApiInput {
  name?: unknown
  method?: unknown
  urlTemplate?: unknown
  headers?: unknown
  bodyTemplate?: unknown
  timeoutMs?: unknown
  responseMapping?: unknown
  cacheTtlSeconds?: unknown
  sampleResponse?: unknown
}

/** A header as typed: a secret left empty keeps the value stored under the same name. */
interface HeaderInput { name: string; value: string; secret: boolean }

function checkTemplate(field: string, label: string, text: string): void {
  for (const part of parseTemplate(text)) {
    if (part.kind === 'formula') throw new ValidationError(field, `${label}: only {{Variable}} placeholders can be filled in; ${part.raw} is a formula.`)
  }
  const stray = /\{\{(?![\p{L}\p{Nd}][\p{L}\p{Nd}_?]*\s*\}\})\s*([^}]*)\}\}/u.exec(text.replace(/\{\{\s*([\p{L}\p{Nd}][\p{L}\p{Nd}_?]*)\s*\}\}/gu, ''))
  if (stray) throw new ValidationError(field, `${label}: {{${stray[1]}}} is not a variable name (letters, digits, _ or ?, starting with a letter or digit).`)
}

function urlTemplateOf(raw: unknown): string {
  const text = requireText('urlTemplate', raw, 'URL', 2000)
  checkTemplate('urlTemplate', 'URL', text)
  // The template must be an http(s) URL whatever the values are; placeholders stand for a harmless word here.
  const sample = text.replace(/\{\{\s*[^}]*\}\}/g, 'x')
  let url: URL | undefined
  try { url = new URL(sample) } catch { url = undefined }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new ValidationError('urlTemplate', 'URL: must start with http:// or https:// and name a host, e.g. https://api.example.com/rates?currency={{Currency}}.')
  }
  // The host comes from the author, never from a run's values (which could name any server).
  if (/\{\{/.test(/^[a-z]+:\/\/([^/?#]*)/i.exec(text)?.[1] ?? '')) {
    throw new ValidationError('urlTemplate', 'URL: the host cannot come from a placeholder; put placeholders in the path or the query.')
  }
  if (url.username || url.password) throw new ValidationError('urlTemplate', 'URL: may not carry a user name or password; send credentials in a secret header.')
  return text
}

function wholeNumber(field: string, label: string, raw: unknown, min: number, max: number, fallback: number): number {
  if (raw === undefined || raw === null || raw === '') return fallback
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : ''
  const n = Number(text)
  if (!/^\d+$/.test(text) || n < min || n > max) throw new ValidationError(field, `${label}: a whole number from ${min} to ${max}.`)
  return n
}

function isTrue(raw: unknown): boolean {
  return raw === true || raw === 'true' || raw === 'on' || raw === '1'
}

function headersOf(raw: unknown): HeaderInput[] {
  if (raw === undefined || raw === null || raw === '') return []
  if (!Array.isArray(raw)) throw new ValidationError('headers', 'headers: must be a list of { name, value, secret }.')
  const headers: HeaderInput[] = []
  raw.forEach((item: unknown, i) => {
    const field = `headers.${i}`
    if (item === null || typeof item !== 'object') throw new ValidationError(field, `${field}: must be { name, value, secret }.`)
    const { name: rawName, value: rawValue, secret } = item as Record<string, unknown>
    const name = typeof rawName === 'string' ? rawName.trim() : ''
    const value = typeof rawValue === 'string' ? rawValue : rawValue === undefined || rawValue === null ? '' : String(rawValue)
    if (name === '' && value === '') return
    if (!HEADER_NAME.test(name)) throw new ValidationError(field, `${field}: "${name}" is not a header name.`)
    if (FORBIDDEN_REQUEST_HEADERS.has(name.toLowerCase())) throw new ValidationError(field, `${field}: ${name} is set by the connection itself and cannot be given.`)
    if (/[\r\n]/.test(value) || value.length > 8000) throw new ValidationError(field, `${field}: the value must be one line of at most 8000 characters.`)
    checkTemplate(field, field, value)
    if (headers.some((h) => h.name.toLowerCase() === name.toLowerCase())) throw new ValidationError(field, `${field}: ${name} is given twice.`)
    headers.push({ name, value, secret: isTrue(secret) })
  })
  if (headers.length > MAX_HEADERS) throw new ValidationError('headers', `headers: at most ${MAX_HEADERS}.`)
  return headers
}

function mappingOf(raw: unknown): ResponseMappingEntry[] {
  if (raw === undefined || raw === null || raw === '') return []
  if (!Array.isArray(raw)) throw new ValidationError('responseMapping', 'responseMapping: must be a list of { path, variable, dataType }.')
  const entries: ResponseMappingEntry[] = []
  raw.forEach((item: unknown, i) => {
    const field = `responseMapping.${i}`
    if (item === null || typeof item !== 'object') throw new ValidationError(field, `${field}: must be { path, variable, dataType }.`)
    const { path: rawPath, variable: rawVariable, dataType: rawType } = item as Record<string, unknown>
    const path = typeof rawPath === 'string' ? rawPath.trim() : ''
    const variable = typeof rawVariable === 'string' ? rawVariable.trim().replace(/^\{\{\s*(.*?)\s*\}\}$/, '$1') : ''
    if (path === '' && variable === '') return
    if (path === '') throw new ValidationError(field, `${field}: give the path of the value in the answer, e.g. /rate or data.rate.`)
    try { parsePath(path) } catch (error) { throw new ValidationError(field, `${field}: ${(error as Error).message}.`) }
    if (!NAME_PATTERN.test(variable)) throw new ValidationError(field, `${field}: the variable name starts with a letter or digit, then contains only letters, digits, _ or ?.`)
    const dataType = rawType === undefined || rawType === null || rawType === '' ? 'freetext' : rawType
    if (!isDataType(dataType)) throw new ValidationError(field, `${field}: the data type must be one of ${DATA_TYPES.join(', ')}.`)
    if (entries.some((e) => e.variable === variable)) throw new ValidationError(field, `${field}: {{${variable}}} is mapped twice.`)
    entries.push({ path, variable, dataType })
  })
  if (entries.length > MAX_MAPPINGS) throw new ValidationError('responseMapping', `responseMapping: at most ${MAX_MAPPINGS}.`)
  return entries
}

function sampleOf(raw: unknown): string {
  const text = optionalText('sampleResponse', raw, 'Sample response', TEMPLATE_LIMIT, 'multiline')
  if (text === '') return text
  try { JSON.parse(text) } catch { throw new ValidationError('sampleResponse', 'Sample response: must be JSON, as the API answers.') }
  return text
}

/** The definition typed, checked field by field; secrets still in clear (sendable, not storable). */
export interface CheckedDefinition extends Omit<ExternalApiSettings, 'headers'> {
  headers: HeaderInput[]
}

/** Every field checked; all that are wrong are told together. */
export async function checkDefinition(input: ExternalApiInput): Promise<CheckedDefinition> {
  return checkFields({
    name: () => requireText('name', input.name, 'Name', 120),
    method: () => {
      const method = input.method === undefined || input.method === null || input.method === '' ? 'GET' : String(input.method).toUpperCase()
      if (!(HTTP_METHODS as readonly string[]).includes(method)) throw new ValidationError('method', `Method: one of ${HTTP_METHODS.join(', ')}.`)
      return method
    },
    urlTemplate: () => urlTemplateOf(input.urlTemplate),
    headers: () => headersOf(input.headers),
    bodyTemplate: () => {
      const bodyTemplate = optionalText('bodyTemplate', input.bodyTemplate, 'Body', TEMPLATE_LIMIT, 'multiline')
      checkTemplate('bodyTemplate', 'Body', bodyTemplate)
      return bodyTemplate
    },
    timeoutMs: () => wholeNumber('timeoutMs', 'Timeout (ms)', input.timeoutMs, MIN_TIMEOUT_MS, MAX_TIMEOUT_MS, DEFAULT_TIMEOUT_MS),
    responseMapping: () => mappingOf(input.responseMapping),
    cacheTtlSeconds: () => wholeNumber('cacheTtlSeconds', 'Cache time (seconds)', input.cacheTtlSeconds, 0, MAX_CACHE_TTL_SECONDS, DEFAULT_CACHE_TTL_SECONDS),
    sampleResponse: () => sampleOf(input.sampleResponse),
  })
}

/**
 * The headers in clear: a secret typed empty takes the value stored under the same name (the edit form never shows
 * it, so leaving it untouched keeps it). A secret with no value at all is refused.
 */
export function resolveSecrets(headers: HeaderInput[], stored: StoredHeader[] | undefined, secretKey: string): RequestHeader[] {
  return headers.map((header, i) => {
    if (!header.secret || header.value !== '') return header
    const kept = stored?.find((s) => s.secret && s.name.toLowerCase() === header.name.toLowerCase())
    if (!kept) throw new ValidationError(`headers.${i}`, `headers.${i}: give the secret value of ${header.name}.`)
    return { ...header, value: unseal(kept.value, secretKey, SECRET_PURPOSE) }
  })
}

/** Headers as stored: secret values sealed under SECRET_KEY. */
export function sealHeaders(headers: RequestHeader[], secretKey: string): StoredHeader[] {
  return headers.map((h) => (h.secret ? { name: h.name, value: seal(h.value, secretKey, SECRET_PURPOSE), secret: true } : { name: h.name, value: h.value, secret: false }))
}

/** A stored definition ready to send: secret header values unsealed (server-side only). */
export function sendableOf(row: Pick<ExternalApiRow, 'method' | 'urlTemplate' | 'headers' | 'bodyTemplate'>, secretKey: string): SendableDefinition {
  return {
    method: row.method, urlTemplate: row.urlTemplate, bodyTemplate: row.bodyTemplate,
    headers: row.headers.map((h) => (h.secret ? { name: h.name, value: unseal(h.value, secretKey, SECRET_PURPOSE), secret: true } : h)),
  }
}

/** A header as pages and the API show it: a secret's value is the mask, never the value or its sealed form. */
export interface HeaderView { name: string; value: string; secret: boolean }

export interface ExternalApiView {
  id: number
  ownerId: string
  name: string
  method: string
  urlTemplate: string
  headers: HeaderView[]
  bodyTemplate: string
  timeoutMs: number
  responseMapping: ResponseMappingEntry[]
  cacheTtlSeconds: number
  sampleResponse: string
  createdAt: Date
  updatedAt: Date
  deleted: boolean
}

export function externalApiView(row: ExternalApiRow): ExternalApiView {
  return {
    id: row.id, ownerId: row.ownerId, name: row.name, method: row.method, urlTemplate: row.urlTemplate,
    headers: row.headers.map((h) => ({ name: h.name, value: h.secret ? MASK : h.value, secret: h.secret })),
    bodyTemplate: row.bodyTemplate, timeoutMs: row.timeoutMs, responseMapping: row.responseMapping,
    cacheTtlSeconds: row.cacheTtlSeconds, sampleResponse: row.sampleResponse, createdAt: row.createdAt, updatedAt: row.updatedAt,
    deleted: row.deletedAt !== null,
  }
}
