// Every response header whose value comes from data goes through here: redirect targets (Location) and download
// names (Content-Disposition). A value from a request or a row could otherwise carry a line break (Node refuses the
// header: a 500), or send the browser to another site (an open redirect through `/\t/evil`, `/\evil`, `//evil` …).
import contentDisposition from 'content-disposition'
import type { FastifyReply } from 'fastify'

/** Longer than any path of the app with its query; a longer target is not one of ours. */
const MAX_TARGET_LENGTH = 4096

/**
 * `raw` as a path on the app's own origin, or null. It is resolved against the origin exactly as a browser resolves a
 * Location (tabs and line breaks dropped, backslashes read as slashes, `.` and `..` applied), and accepted only when
 * the origin is unchanged and the resulting path starts with a single `/`. What comes back is the parsed form
 * (path, query and fragment, percent-encoded ASCII), never the raw text, so it means the same to every reader.
 */
export function sameOriginPath(raw: unknown, baseUrl: string): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_TARGET_LENGTH) return null
  const origin = new URL(baseUrl).origin
  let url: URL
  try {
    url = new URL(raw, origin)
  } catch {
    return null
  }
  if (url.origin !== origin || !url.pathname.startsWith('/') || url.pathname.startsWith('//')) return null
  return `${url.pathname}${url.search}${url.hash}`
}

/** `path` is `prefix` itself or below it (`/a/publish/x`, `/a/publish?y`), not merely spelled alike (`/a/publisher`). */
function isUnder(path: string, prefix: string): boolean {
  return path === prefix || (path.startsWith(prefix) && '/?#'.includes(path.charAt(prefix.length)))
}

/**
 * Redirects to `target` when it is a path on the app's own origin (sameOriginPath; with `under`, also below that
 * path), else to `fallback` (a path the route itself chose). Every redirect whose target a request can influence is
 * sent through here.
 */
export function redirectWithin(reply: FastifyReply, target: unknown, fallback: string, opts: { code?: 302 | 303; under?: string } = {}): FastifyReply {
  const baseUrl = reply.server.deps.config.baseUrl
  const wanted = sameOriginPath(target, baseUrl)
  const location = wanted !== null && (opts.under === undefined || isUnder(wanted, opts.under)) ? wanted : sameOriginPath(fallback, baseUrl)
  if (location === null) throw new Error(`redirect fallback ${JSON.stringify(fallback)} is not a path of this app`)
  return reply.redirect(location, opts.code ?? 302)
}

/**
 * A redirect to another site, for a stored address that is meant to leave (a link supplement's page): only http(s),
 * without credentials, in its parsed form (which percent-encodes anything a header cannot carry); else null.
 */
export function externalLocation(raw: string): string | null {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return null
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return null
  return url.href
}

/** C0 controls and DEL: never part of a name a browser should save a file under. */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]+/g

/**
 * The Content-Disposition of a file named `filename`: control characters become `_`, folders in front of the name
 * are dropped, quotes are escaped, and a name beyond ISO-8859-1 is sent as RFC 5987 `filename*` with an ASCII-safe
 * `filename` beside it.
 */
export function dispositionHeader(filename: string, type: 'inline' | 'attachment'): string {
  const clean = filename.replace(CONTROL_CHARACTERS, '_').trim() || 'download'
  return contentDisposition(clean, { type })
}
