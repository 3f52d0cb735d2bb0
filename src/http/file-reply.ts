// Writing a served supplement file (services/files/serve.ts) to the reply with the headers that keep uploaded content
// harmless: the type the bytes were found to be and no sniffing, inline or attachment as decided, and a content
// security policy that sandboxes it (scripts may run in the iframe pages, but in an opaque origin: no cookies, no
// same-origin requests). The app-wide security headers are off on these routes (`helmet: false`), as these replace them.
import contentDisposition from 'content-disposition'
import type { FastifyReply } from 'fastify'
import type { ServedFile } from '../services/files/serve.ts'

/** Files of the view route: nothing in them may run, load or frame anything. */
const VIEW_POLICY = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox"
/** The iframe pages (SPEC-derived, issue 15): scripts run, in a sandbox without allow-same-origin. */
export const FRAME_POLICY = 'sandbox allow-scripts'

export function sendServedFile(reply: FastifyReply, file: ServedFile, opts: { frame: boolean }): FastifyReply {
  const textual = file.contentType.startsWith('text/') || file.contentType === 'image/svg+xml' || file.contentType === 'application/json'
  reply
    .header('content-type', textual ? `${file.contentType}; charset=utf-8` : file.contentType)
    .header('content-length', String(file.size))
    .header('content-disposition', contentDisposition(file.filename, { type: file.inline ? 'inline' : 'attachment' }))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', opts.frame ? FRAME_POLICY : VIEW_POLICY)
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-resource-policy', file.shared ? 'cross-origin' : 'same-origin')
    .header('cache-control', 'private, max-age=3600')
  return reply.send(file.stream)
}
