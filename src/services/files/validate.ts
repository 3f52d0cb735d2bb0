// Checks of what authors type about a supplement; each names its field.
import { SUPPLEMENT_TYPES, type SupplementTarget, type SupplementType } from '../../db/schema/index.ts'
import { ValidationError } from '../errors.ts'
import { optionalText, requireOneOf, requireText } from '../validate.ts'

export const NAME_MAX = 200
export const DESCRIPTION_MAX = 2000
export const URL_MAX = 2048

export const TYPE_LABELS: Readonly<Record<SupplementType, string>> = {
  adviceSource: 'Advice source', referenceDoc: 'Reference document', actionButton: 'Action button', dataApiSource: 'Data API source',
}

export function supplementName(raw: unknown): string {
  return requireText('name', raw, 'name: the name', NAME_MAX)
}

/** The type given, or `fallback` when none is (defaultTypeFor: what the supplement is added to decides). */
export function supplementType(raw: unknown, fallback: SupplementType = 'adviceSource'): SupplementType {
  return raw === undefined || raw === '' ? fallback : requireOneOf('type', raw, SUPPLEMENT_TYPES, 'type')
}

/** What a supplement added to a target is used as unless told: an advice node's is a source of its advice, an advice set's a reference document. */
export function defaultTypeFor(targetType: SupplementTarget | undefined): SupplementType {
  return targetType === 'adviceSet' ? 'referenceDoc' : 'adviceSource'
}

export function supplementDescription(raw: unknown): string {
  return optionalText('description', raw, 'description', DESCRIPTION_MAX, 'multiline')
}

/** An absolute http(s) address without a user name or password, at most URL_MAX characters. */
export function webAddress(field: string, raw: unknown, opts: { required: boolean }): string | null {
  const text = typeof raw === 'string' ? raw.trim() : ''
  if (text === '') {
    if (opts.required) throw new ValidationError(field, `${field}: an address (http:// or https://) is required.`)
    return null
  }
  if (text.length > URL_MAX) throw new ValidationError(field, `${field}: must be at most ${URL_MAX} characters.`)
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new ValidationError(field, `${field}: "${text.slice(0, 80)}" is not a web address.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationError(field, `${field}: only http:// and https:// addresses are allowed.`)
  if (url.username || url.password) throw new ValidationError(field, `${field}: must not contain a user name or password.`)
  return url.href
}

/** A name from a file name: without folders and extension, control characters dropped, at most NAME_MAX long. */
export function nameFromFilename(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? ''
  const stem = base.replace(/\.[^.]{1,10}$/, '')
  const visible = (text: string) => text.replace(/[\u0000-\u001f\u007f]/g, '').trim()
  return (visible(stem) || visible(base) || 'Untitled file').slice(0, NAME_MAX)
}

/** A link's name when the author gave none: its host and path. */
export function nameFromUrl(href: string): string {
  const url = new URL(href)
  return `${url.host}${url.pathname === '/' ? '' : url.pathname}`.slice(0, NAME_MAX)
}
