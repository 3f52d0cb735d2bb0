// /api/advice/markdown/preview (SPEC §7 advice family): markdown rendered as advice text is, for a partner's key or
// a signed-in author. It lives in the browser app's context, where the session is, and carries the partner response
// headers and metering like the key-only partner routes.
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { markdownPreview } from '../../services/delivery/markdown.ts'
import { UnauthorizedError } from '../../services/errors.ts'
import { addPartnerResponseHooks } from './advice-partner.ts'
import { markdownPreviewSchema } from './advice-schemas.ts'

export const markdownPreviewApi: FastifyPluginAsyncTypebox = async (app) => {
  addPartnerResponseHooks(app)
  const { requireApiKey } = app.partner

  // A key, or the session of a signed-in author; only the session needs the CSRF token (csrf: false opts the
  // route out of the app-wide check, which runs before it is known which of the two the request uses). With a key it
  // may be called from any site (keyAuth: the origin guard lets it through); with the session, only from the app.
  function keyOrUser(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
    if (request.headers.authorization !== undefined) return requireApiKey(request, reply, done)
    done(request.user ? undefined : new UnauthorizedError('Send an API key as "Authorization: Bearer <key>", or sign in.'))
  }
  function csrfForSession(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
    if (request.partnerKey) return done()
    app.csrfProtection(request, reply, done)
  }

  app.post('/markdown/preview', {
    schema: markdownPreviewSchema, config: { csrf: false, keyAuth: true }, onRequest: keyOrUser, preHandler: csrfForSession,
  }, async (request) => ({ data: markdownPreview(request.body.markdown, { links: request.body.links ?? true }) }))
}
