// One error handler: HTML pages get an error page, /api gets { error: { status, name, message } } (bad input adds
// `field` and `fields`, each field at fault with its message). 5xx never leak.
import fp from 'fastify-plugin'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { DomainError, UpstreamError } from '../../services/errors.ts'
import { isApiRequest } from './auth.ts'
import { dropRestOfBody } from './input-guard.ts'

const STATUS_NAMES: Record<number, string> = {
  221: 'Delete Not Allowed', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 406: 'Not Acceptable', 409: 'Conflict',
  413: 'Payload Too Large', 415: 'Unsupported Media Type', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway',
}

function statusOf(error: FastifyError | DomainError): number {
  if (error instanceof DomainError) return error.status
  const status = (error as FastifyError).statusCode
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500
}

function messageOf(error: FastifyError | DomainError, status: number): string {
  // An upstream failure's message is written for the user and is the point of the answer.
  if (status >= 500 && !(error instanceof UpstreamError)) return 'Something went wrong on our side. Please try again.'
  if ((error as FastifyError).code === 'FST_CSRF_INVALID_TOKEN' || (error as FastifyError).code === 'FST_CSRF_MISSING_SECRET') {
    return 'This form has expired or was sent from elsewhere. Reload the page and try again.'
  }
  if ((error as FastifyError).validation) return validationMessage(error as FastifyError)
  return error.message
}

/** The property a schema validation failure is about: "body/email" becomes "email". */
function validationField(error: FastifyError): string {
  const first = error.validation?.[0]
  if (!first) return 'input'
  const extra = (first.params as { additionalProperty?: string })?.additionalProperty
  if (extra) return extra
  return (first.instancePath || '').replace(/^\//, '').replace(/\//g, '.') ||
    (first.params as { missingProperty?: string })?.missingProperty || error.validationContext || 'input'
}

/** Names the field: "body/email must match format \"email\"" becomes "email: must match format \"email\"". */
function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0]
  if (!first) return error.message
  if ((first.params as { additionalProperty?: string })?.additionalProperty) return `${validationField(error)}: is not an accepted field`
  return `${validationField(error)}: ${first.message ?? 'is not valid'}`
}

function detailsOf(error: FastifyError): Record<string, unknown> | undefined {
  if (error instanceof DomainError) return error.details
  if (error.validation) {
    const field = validationField(error)
    return { field, fields: [{ field, message: validationMessage(error) }] }
  }
  return undefined
}

export async function sendError(request: FastifyRequest, reply: FastifyReply, status: number, message: string, details?: Record<string, unknown>) {
  const name = STATUS_NAMES[status] ?? 'Error'
  reply.code(status)
  // A body refused for its size was not read to its end: the rest is not read beyond a bound.
  if (status === 413) dropRestOfBody(request.raw)
  if (isApiRequest(request) || !request.headers.accept?.includes('text/html') && request.method !== 'GET') {
    return reply.send({ error: { status, name, message, ...details } })
  }
  // A reply outside the browser app (a static file's) has no pages to render: a missing asset is told in plain text.
  const plain = () => reply.type('text/plain; charset=utf-8').send(`${status} ${name}: ${message}`)
  if (typeof reply.page !== 'function') return plain()
  try {
    return reply.type('text/html; charset=utf-8').send(await reply.page('errors/error', { title: name, status, name, message, ...details }))
  } catch (renderError) {
    request.log.error({ err: renderError }, 'error page failed to render')
    return plain()
  }
}

/** The error handler, for the whole app: the browser app's pages and API, and the partner routes. */
export default fp(async function errorsPlugin(app) {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const status = statusOf(error)
    if (status >= 500 && !(error instanceof UpstreamError)) request.log.error({ err: error, method: request.method, url: request.url, params: request.params }, 'request failed')
    else request.log.info({ code: (error as FastifyError).code, status, url: request.url }, error.message)
    return sendError(request, reply, status, messageOf(error, status), detailsOf(error))
  })
}, { name: 'errors' })

/**
 * The 404 answer for every unknown URL. Registered in the browser app's context, so it runs with the session and a
 * signed-in user still sees their header on the page.
 */
export const notFoundPlugin = fp(async function notFoundPlugin(app) {
  app.setNotFoundHandler(async (request, reply) => {
    return sendError(request, reply, 404, isApiRequest(request) ? `No route ${request.method} ${request.url.split('?')[0]}` : 'This page does not exist.')
  })
}, { name: 'not-found', dependencies: ['view'] })
