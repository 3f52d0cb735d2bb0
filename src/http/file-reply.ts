// Writing a served supplement file (services/files/serve.ts) to the reply with the headers that keep uploaded content
// harmless: the type the bytes were found to be and no sniffing, inline or attachment as decided, and a content
// security policy that sandboxes it (scripts may run in the iframe pages, but in an opaque origin: no cookies, no
// same-origin requests). On these routes the app-wide headers leave out what these replace (FILE_HEADERS).
import type { HelmetOptions } from 'helmet'
import type { FastifyReply } from 'fastify'
import type { ServedFile } from '../services/files/serve.ts'
import { dispositionHeader } from './header-values.ts'

/** Files of the view route: nothing in them may run, load or frame anything. */
const VIEW_POLICY = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox"
/** The iframe pages (SPEC-derived, issue 15): scripts run, in a sandbox without allow-same-origin. */
export const FRAME_POLICY = 'sandbox allow-scripts'

/**
 * The app-wide security headers of the file routes: the rest stay (nosniff, HSTS …), but not the page's CSP, its
 * same-origin resource policy, its referrer policy or its frame guard, which sendServedFile decides per file (a
 * shared file may be shown and framed by partners' pages).
 */
export const FILE_HEADERS: HelmetOptions = {
  contentSecurityPolicy: false, crossOriginResourcePolicy: false, referrerPolicy: false, xFrameOptions: false,
}

export function sendServedFile(reply: FastifyReply, file: ServedFile, opts: { frame: boolean }): FastifyReply {
  const textual = file.contentType.startsWith('text/') || file.contentType === 'image/svg+xml' || file.contentType === 'application/json'
  reply
    .header('content-type', textual ? `${file.contentType}; charset=utf-8` : file.contentType)
    .header('content-length', String(file.size))
    .header('content-disposition', dispositionHeader(file.filename, file.inline ? 'inline' : 'attachment'))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', opts.frame ? FRAME_POLICY : VIEW_POLICY)
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-resource-policy', file.shared ? 'cross-origin' : 'same-origin')
    .header('cache-control', 'private, max-age=3600')
  return reply.send(file.stream)
}
