// /api/advice (SPEC §7 advice family): {adviceSetId} and {adviceSetId}/legacy for partners' keys, GET with the
// answers in the query or POST with them in a JSON body. (markdown/preview, which also takes a session, is in
// markdown-preview.ts.)
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { adviceJsonFor, legacyAdviceFor, servedFor, type Answer } from '../../services/delivery/advice-api.ts'
import { parseResponseShape, type ResponseShape } from '../../services/delivery/fields.ts'
import { inputsFromQuery } from '../../services/delivery/inputs.ts'
import { mediaTypeOf, negotiateContentType } from '../../services/delivery/media-types.ts'
import type { ServedVersion } from '../../services/publishing/versions.ts'
import { adviceRouteSchema, legacyRouteSchema, type AdviceRoute } from './advice-schemas.ts'

/**
 * The embed's interview marks its calls (islands/interview/advice-client.ts): it counts its interviews itself, so its
 * steps are not counted as a partner's runs.
 */
function fromEmbed(request: FastifyRequest): boolean {
  return request.headers['x-advice-client'] === 'embed'
}

/** Answers from the query, then the body's (which win for a name given in both). */
function inputsOf(request: FastifyRequest<AdviceRoute>): Record<string, unknown> {
  const fromQuery = inputsFromQuery(request.query)
  const fromBody = request.body?.inputs
  return fromBody ? { ...fromQuery, ...fromBody } : fromQuery
}

/** A POST body's `explain` (a boolean) wins over the query's. */
function withBodyExplain(shape: ResponseShape, explain: boolean | undefined): ResponseShape {
  return explain === undefined || explain === shape.explain ? shape : { ...shape, explain }
}

export async function adviceApi(app: FastifyInstance) {
  const { cache, requireApiKey, recorder } = app.partner

  /** The version the request's key is served; from here on the request is metered under the set. */
  async function served(request: FastifyRequest<AdviceRoute>): Promise<ServedVersion> {
    const version = await servedFor(cache, request.partnerKey!, request.params.adviceSetId)
    request.meteredAdviceSetId = version.adviceSetId
    return version
  }

  function sendJson(reply: FastifyReply, mediaType: string, json: string) {
    return reply.type(mediaType).header('vary', 'Accept').send(json)
  }

  /** Sends an answer with the id of its decision record; in durable mode only once that record is committed. */
  function sendAnswer(reply: FastifyReply, mediaType: string, answer: Answer<string>) {
    const { recorded } = answer
    if (recorded) reply.header('decision-id', recorded.id)
    if (recorded?.committed) return recorded.committed.then(() => sendJson(reply, mediaType, answer.body))
    return sendJson(reply, mediaType, answer.body)
  }

  for (const method of ['GET', 'POST'] as const) {
    app.route<AdviceRoute>({
      method, url: '/:adviceSetId', schema: adviceRouteSchema(method), onRequest: requireApiKey,
      handler: async (request, reply) => {
        // The set first: a request the key may make is metered under its set even when its Accept is refused (406).
        const version = await served(request)
        const contentType = negotiateContentType(request.headers.accept)
        const shape = withBodyExplain(parseResponseShape(request.query), request.body?.explain)
        const answer = adviceJsonFor(cache, request.partnerKey!, version, { inputs: inputsOf(request), contentType, shape, fromEmbed: fromEmbed(request), recorder, receivedAt: new Date() })
        // Not a promise unless external APIs had to be called: the usual answer does not wait a turn for an await.
        return sendAnswer(reply, mediaTypeOf(contentType), answer instanceof Promise ? await answer : answer)
      },
    })
    app.route<AdviceRoute>({
      method, url: '/:adviceSetId/legacy', schema: legacyRouteSchema(method), onRequest: requireApiKey,
      handler: async (request, reply) => {
        const version = await served(request)
        const contentType = negotiateContentType(request.headers.accept)
        const answer = await legacyAdviceFor(cache, request.partnerKey!, version, { inputs: inputsOf(request), contentType, fromEmbed: fromEmbed(request), recorder, receivedAt: new Date() })
        return sendAnswer(reply, mediaTypeOf(contentType), { body: JSON.stringify({ data: answer.body }), recorded: answer.recorded })
      },
    })
  }
}
