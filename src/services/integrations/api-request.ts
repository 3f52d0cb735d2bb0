// The outgoing request of an external API definition for one run: its URL, header and body templates filled with
// the run's values. Each placeholder is escaped for where it stands: URL-encoded in the URL, JSON-string-escaped in a
// body (form-encoded when the definition sends a form), and stripped of line breaks in a header, so a value can never
// change the request's shape (another host, another header, broken JSON).
import { parseTemplate, valueToText, type TemplatePart, type Value } from '../../engine/index.ts'

export interface RequestHeader { name: string; value: string; secret: boolean }

/** A definition as it is sent: the templates and the headers with secret values in clear (they never leave the server). */
export interface SendableDefinition {
  method: string
  urlTemplate: string
  headers: RequestHeader[]
  bodyTemplate: string
}

export interface BuiltRequest {
  method: string
  url: string
  headers: Record<string, string>
  body: string | undefined
  /** Header names whose values are secret: masked wherever the request is shown. */
  secretHeaders: string[]
}

/** A placeholder without a value: the request cannot be made. */
export class MissingValueError extends Error {
  constructor(readonly variable: string) {
    super(`{{${variable}}} has no value`)
  }
}

/** Every {{Variable}} the definition's templates use, each once. */
export function templateVariables(definition: Pick<SendableDefinition, 'urlTemplate' | 'headers' | 'bodyTemplate'>): string[] {
  const names = new Set<string>()
  for (const text of [definition.urlTemplate, definition.bodyTemplate, ...definition.headers.map((h) => h.value)]) {
    for (const part of parseTemplate(text)) if (part.kind === 'variable') names.add(part.name)
  }
  return [...names]
}

type Escape = (text: string) => string

/** Templates are filled on every run that calls an API (cached answers included): each is parsed once. */
const parsedTemplates = new Map<string, TemplatePart[]>()
const PARSED_LIMIT = 2000

function partsOf(template: string): TemplatePart[] {
  let parts = parsedTemplates.get(template)
  if (parts === undefined) {
    parts = parseTemplate(template)
    if (parsedTemplates.size >= PARSED_LIMIT) parsedTemplates.clear()
    parsedTemplates.set(template, parts)
  }
  return parts
}

function fill(template: string, valueOf: (name: string) => Value | undefined, escape: Escape): string {
  let out = ''
  for (const part of partsOf(template)) {
    if (part.kind === 'text') {
      out += part.text
      continue
    }
    const value = part.kind === 'variable' ? valueOf(part.name) : undefined
    if (value === undefined || value === null) throw new MissingValueError(part.name)
    out += escape(valueToText(value))
  }
  return out
}

const jsonEscape: Escape = (text) => JSON.stringify(text).slice(1, -1)
const headerEscape: Escape = (text) => text.replace(/[\r\n]+/g, ' ')

/** The request for these values; throws MissingValueError naming a placeholder that has none. */
export function buildRequest(definition: SendableDefinition, valueOf: (name: string) => Value | undefined): BuiltRequest {
  const headers: Record<string, string> = {}
  const secretHeaders: string[] = []
  for (const header of definition.headers) {
    headers[header.name] = fill(header.value, valueOf, headerEscape)
    if (header.secret) secretHeaders.push(header.name)
  }
  const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? ''
  const sendsBody = definition.method !== 'GET' && definition.bodyTemplate !== ''
  const body = sendsBody ? fill(definition.bodyTemplate, valueOf, /x-www-form-urlencoded/i.test(contentType) ? encodeURIComponent : jsonEscape) : undefined
  if (sendsBody && contentType === '') headers['content-type'] = 'application/json'
  return { method: definition.method, url: fill(definition.urlTemplate, valueOf, encodeURIComponent), headers, body, secretHeaders }
}

export const MASK = '••••••'

/** The request as it may be shown (debugger trace, test panel, logs): secret header values masked. */
export function maskedRequest(request: BuiltRequest): { method: string; url: string; headers: Record<string, string>; body: string | null } {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(request.headers)) headers[name] = request.secretHeaders.includes(name) ? MASK : value
  return { method: request.method, url: request.url, headers, body: request.body ?? null }
}

/** What makes two requests the same for the response cache: everything that is sent. */
export function requestFingerprint(request: BuiltRequest): string {
  return JSON.stringify([request.method, request.url, Object.entries(request.headers).sort(), request.body ?? null])
}
