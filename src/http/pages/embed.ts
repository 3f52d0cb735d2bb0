// The embeddable interview (page `rule-set-embed`): /adviceset/{id}/embed?key=… is the light interview page partner
// sites frame through static/embed.js; without a key, signed-in readers get the snippet to copy and a live preview
// of the working draft (…/embed?preview=draft, framed by the studio only).
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { FastifyReply } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { getAdviceSet } from '../../services/library/advice-sets.ts'
import { embedContentSecurityPolicy, embeddingKey, embedSnippet, grantEmbed, type InterviewProps } from '../../services/delivery/embed.ts'
import { NotFoundError } from '../../services/errors.ts'
import { itemId } from '../api/ids.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { IdParams, StringEnum } from '../schemas.ts'

const EMBED_SCRIPT = readFileSync(path.resolve(import.meta.dirname, '../../../static/embed.js'))

const EmbedQuery = Type.Object({
  key: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  preview: Type.Optional(StringEnum(['draft'])),
}, { additionalProperties: false })

/** The light pages partners and the author's preview frame: no header, no app loader. */
async function lightPage(reply: FastifyReply, template: string, data: Record<string, unknown>) {
  const html = await reply.viewAsync(template, data)
  reply.type('text/html; charset=utf-8')
  return html
}

/** `note` says when the interview is not the published advice. */
function interviewPage(reply: FastifyReply, data: { title: string; note: string | null; props: InterviewProps }) {
  return lightPage(reply, 'embed/interview', { ...data, propsJson: JSON.stringify(data.props) })
}

export const embedPages: FastifyPluginAsyncTypebox = async (app) => {
  // The page sets its own frame policy on every answer (X-Frame-Options cannot name other origins); answers given
  // before it is decided (a bad query, an unknown key) keep the one set on request, which lets no one frame them.
  app.get('/adviceset/:id/embed', {
    helmet: { frameguard: false, contentSecurityPolicy: false },
    onRequest: async (_request, reply) => { reply.header('content-security-policy', embedContentSecurityPolicy([])) },
    schema: { params: IdParams, querystring: EmbedQuery },
  }, async (request, reply) => {
    const id = itemId(request.params.id)
    const query = request.query

    if (query.key !== undefined) {
      const embedding = await embeddingKey(app.deps.db, query.key)
      let grant
      try {
        grant = await grantEmbed(app.partner.cache, { ...embedding, adviceSetId: id, referer: request.headers.referer })
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error
        // Shown inside the partner's frame, so the partner sees why it is empty (a set not published yet, a key
        // for other sets) rather than a frame the browser refused.
        reply.code(404).header('content-security-policy', embedContentSecurityPolicy(embedding.frameAncestors))
        return lightPage(reply, 'embed/unavailable', { title: 'Advice unavailable', message: error.message })
      }
      reply.header('content-security-policy', embedContentSecurityPolicy(grant.frameAncestors))
      return interviewPage(reply, {
        title: grant.adviceSet.name,
        note: grant.key.environment === 'preview' ? 'Preview version: partners with production keys see the published version.' : null,
        props: { adviceSetId: id, source: { kind: 'key', key: query.key }, parentOrigins: grant.parentOrigins, askUs: grant.key.adviceRequests },
      })
    }

    await requireUser.call(app, request, reply)
    if (reply.sent) return reply
    const set = await getAdviceSet(app.deps, actorOf(request), id)
    if (query.preview === 'draft') {
      reply.header('content-security-policy', embedContentSecurityPolicy(["'self'"]))
      return interviewPage(reply, {
        title: set.nameAlt || set.name,
        note: 'Preview of the working draft: partners see the published version.',
        props: { adviceSetId: id, source: { kind: 'draft', csrfToken: reply.generateCsrf() }, parentOrigins: [] },
      })
    }
    reply.header('content-security-policy', embedContentSecurityPolicy(["'self'"], { inlineStyles: true }))
    return reply.page('embed/show', {
      title: `Embed ${set.name}`,
      set,
      snippet: embedSnippet(app.deps.config.baseUrl, id),
      currentAdviceSet: { id: set.id, name: set.name, ownerId: set.ownerId },
    })
  })

  // Partner pages on other origins load this script, which the app-wide same-origin resource policy would block.
  app.get('/static/embed.js', { helmet: { crossOriginResourcePolicy: { policy: 'cross-origin' } } }, async (_request, reply) => {
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600')
    return EMBED_SCRIPT
  })
}
