// The embeddable interview (issue 7 point 5): which API keys may embed which advice set, from which partner pages,
// and the snippet authors copy.
//
// A key used in a browser is public: anyone can read it from the partner's page. So only keys that name the
// partner sites they may be embedded in (allowedOrigins) open the embed page; the page is served with
// `frame-ancestors` set to exactly those origins, so browsers refuse to show it framed anywhere else, and a frame
// request whose Referer names another origin is refused outright. What such a key gives away is what the partner
// page shows anyway: the published advice of the sets the key allows, within the key's rate limit.
import type { Db } from '../../db/client.ts'
import { keyMayRead } from './advice-api.ts'
import type { AdviceCache } from './cache.ts'
import { authenticateApiKey, type AuthenticatedKey } from './api-keys.ts'
import { ForbiddenError, NotFoundError } from '../errors.ts'

/** Where the interview sends answers: the Advice API with the partner's key, or the debugger's run of the working draft (signed in). */
export type AdviceSource = { kind: 'key'; key: string } | { kind: 'draft'; csrfToken: string }

/** The props of the interview island (islands/interview). */
export interface InterviewProps {
  adviceSetId: number
  source: AdviceSource
  /** Origins the page may post its height to; empty: its own origin (the studio's preview). */
  parentOrigins: string[]
  /** The key offers "Didn't find what you need? Ask us" (requests for advice). */
  askUs?: boolean
}

export interface EmbedGrant extends EmbeddingKey {
  adviceSet: { id: number; name: string }
  /** Where the page posts its height: the framing page's origin when the request named it, else every allowed origin. */
  parentOrigins: string[]
}

/** `https://partner.example/` and `https://Partner.example` are the same origin; anything that is not an http(s) origin is no origin. */
export function normalizeOrigin(text: string): string | undefined {
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined
  } catch {
    return undefined
  }
}

/**
 * The Content-Security-Policy of the embed pages: only our own scripts, and framed only by `ancestors`. The author's
 * page uses the app's layout, whose markup carries inline styles.
 */
export function embedContentSecurityPolicy(ancestors: readonly string[], opts: { inlineStyles?: boolean } = {}): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    opts.inlineStyles ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'self'",
    "object-src 'none'",
    `frame-ancestors ${ancestors.length > 0 ? ancestors.join(' ') : "'none'"}`,
  ].join('; ')
}

export interface EmbeddingKey {
  key: AuthenticatedKey
  /** Origins that may frame the page (the key's allowed origins, normalised). */
  frameAncestors: string[]
}

/** The key of an embed request: 401 when it is unknown, 403 when it names no origins to be embedded in. */
export async function embeddingKey(db: Db, secret: string): Promise<EmbeddingKey> {
  const key = await authenticateApiKey(db, `Bearer ${secret}`)
  const frameAncestors = [...new Set(key.allowedOrigins.map(normalizeOrigin).filter((o) => o !== undefined))]
  if (frameAncestors.length === 0) {
    throw new ForbiddenError('This API key has no allowed origins, so it cannot embed the interview. An admin can add the partner site’s origin to the key under API keys.')
  }
  return { key, frameAncestors }
}

/**
 * Checks the rest of an embed request: that the key is served this set (404 otherwise, by the Advice API's own
 * rule, from the Advice API's cache of served versions) and that the framing page, when the browser named it in the
 * Referer, is one of the key's origins (403).
 */
export async function grantEmbed(cache: AdviceCache, request: EmbeddingKey & { adviceSetId: number; referer: string | undefined }): Promise<EmbedGrant> {
  const { key, frameAncestors } = request
  const served = await cache.servedVersion(request.adviceSetId, { environment: key.environment, audienceId: key.audienceId })
  if (!served || !keyMayRead(key, request.adviceSetId, served)) {
    throw new NotFoundError('This advice is not available: the advice set is not published for this API key.')
  }
  const framing = request.referer === undefined ? undefined : normalizeOrigin(request.referer)
  if (framing !== undefined && !frameAncestors.includes(framing)) {
    throw new ForbiddenError(`${framing} is not among the origins this API key may be embedded in.`)
  }
  const { adviceSet } = served.snapshot
  return {
    key,
    adviceSet: { id: request.adviceSetId, name: adviceSet.nameAlt || adviceSet.name },
    frameAncestors,
    parentOrigins: framing === undefined ? frameAncestors : [framing],
  }
}

/** The tag a partner pastes into a page. */
export function embedSnippet(baseUrl: string, adviceSetId: number, key = 'YOUR_API_KEY'): string {
  return `<script src="${baseUrl}/static/embed.js" data-advice-set="${adviceSetId}" data-key="${key}" async></script>`
}
