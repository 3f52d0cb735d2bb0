// Secrets that travel in URLs (an embed page's API key, reset and setup tokens, supplement tokens, the upload form's
// CSRF token) must not reach the request log.
import type { FastifyRequest } from 'fastify'

const SECRET_QUERY_PARAMS = /([?&](?:key|token|_csrf)=)[^&#]*/gi
const SECRET_PATH_SEGMENTS = /^(\/password\/(?:reset|setup)\/)[^/?#]+/

export function redactUrl(url: string): string {
  return url.replace(SECRET_PATH_SEGMENTS, '$1[redacted]').replace(SECRET_QUERY_PARAMS, '$1[redacted]')
}

/** Fastify's default request serializer, with the URL redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }
}
