// Accept → content type for the Advice API (SPEC §3 vendor JSON variants). Plain JSON, a wildcard or no Accept at
// all mean text; a header that accepts none of them gets 406 rather than a type the client cannot read.
import { CONTENT_TYPES, type ContentType } from '../../engine/index.ts'
import { DomainError } from '../errors.ts'

const VENDOR_PREFIX = 'application/vnd.advicestudio.json+'

export const ADVICE_MEDIA_TYPES: readonly string[] = CONTENT_TYPES.map(mediaTypeOf)

export function mediaTypeOf(type: ContentType): string {
  return VENDOR_PREFIX + type
}

export class NotAcceptableError extends DomainError {
  constructor(accept: string) {
    super('NOT_ACCEPTABLE', `Accept "${accept.slice(0, 200)}" names no type this API answers with. Use application/json or one of ${ADVICE_MEDIA_TYPES.join(', ')}.`, 406)
  }
}

const BY_MEDIA_TYPE: ReadonlyMap<string, ContentType> = new Map<string, ContentType>([
  ...CONTENT_TYPES.map((type) => [mediaTypeOf(type), type] as const),
  ['application/json', 'text'],
  ['application/*', 'text'],
  ['*/*', 'text'],
])

/** The content type the Accept header prefers (highest q, then first listed); throws NotAcceptableError for none. */
export function negotiateContentType(accept: string | undefined): ContentType {
  if (accept === undefined || accept.trim() === '') return 'text'
  // Most clients send one exact type; it needs no parsing.
  const exact = BY_MEDIA_TYPE.get(accept)
  if (exact !== undefined) return exact
  let best: ContentType | undefined
  let bestQuality = 0
  for (const range of accept.split(',')) {
    const [rawType, ...params] = range.split(';')
    const type = BY_MEDIA_TYPE.get(rawType!.trim().toLowerCase())
    if (type === undefined) continue
    const quality = qualityOf(params)
    if (quality > bestQuality) {
      best = type
      bestQuality = quality
    }
  }
  if (best === undefined) throw new NotAcceptableError(accept)
  return best
}

function qualityOf(params: string[]): number {
  for (const param of params) {
    const [name, value] = param.split('=')
    if (name?.trim().toLowerCase() !== 'q') continue
    const q = Number(value?.trim())
    return Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0
  }
  return 1
}
