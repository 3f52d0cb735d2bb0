// Partner routes the embedded interview calls besides the Advice API, with the same key (Bearer): the events of its
// interviews (each counted by the embed per interview: started, questions shown and answered, advice reached,
// abandoned at a question) and a request for advice typed into
// "Didn't find what you need? Ask us" — only for keys that offer that box, and at most 5 a minute per visitor.
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from '@fastify/type-provider-typebox'
import { servedFor } from '../../services/delivery/advice-api.ts'
import { INTERVIEW_LEVEL_EVENTS, QUESTION_EVENTS, recordInterviewEvent } from '../../services/delivery/interview-events.ts'
import { createRateLimiter } from '../../services/delivery/rate-limit.ts'
import { DomainError, ForbiddenError } from '../../services/errors.ts'
import { submitEmbedRequest } from '../../services/library/advice-requests.ts'
import { StringEnum } from '../schemas.ts'

const Params = Type.Object({ adviceSetId: Type.Integer({ minimum: 1, maximum: 2147483647 }) })
/** An event of one of the embed's interviews: about the whole interview, or about one of its questions. */
const EmbedEvent = Type.Union([
  Type.Object({ event: StringEnum(INTERVIEW_LEVEL_EVENTS) }, { additionalProperties: false }),
  Type.Object({ event: StringEnum(QUESTION_EVENTS), question: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
])
const EventsBody = Type.Object({ events: Type.Array(EmbedEvent, { minItems: 1, maxItems: 50 }) }, { additionalProperties: false })
const RequestBody = Type.Object({ text: Type.String({ maxLength: 4000 }) }, { additionalProperties: false })

/** Requests for advice a visitor (key and address) may send a minute. */
export const ADVICE_REQUESTS_PER_MINUTE = 5

class TooManyRequestsError extends DomainError {
  constructor(seconds: number) {
    super('RATE_LIMITED', `You have sent several questions just now. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`, 429)
  }
}

export async function adviceEmbedApi(app: FastifyInstance) {
  const { cache, requireApiKey } = app.partner
  const visitors = createRateLimiter(app.deps.db, { scope: 'visitor', onError: (err) => app.log.warn({ err }, 'visitor rate limit: the shared count failed; this instance counted alone') })

  app.post<{ Params: Static<typeof Params>; Body: Static<typeof EventsBody> }>('/:adviceSetId/events', {
    onRequest: requireApiKey, schema: { params: Params, body: EventsBody },
  }, async (request, reply) => {
    const version = await servedFor(cache, request.partnerKey!, request.params.adviceSetId)
    request.meteredAdviceSetId = version.adviceSetId
    for (const e of request.body.events) recordInterviewEvent(version.adviceSetId, e.event, 'question' in e ? e.question : '')
    return reply.code(202).send({ data: { recorded: request.body.events.length } })
  })

  app.post<{ Params: Static<typeof Params>; Body: Static<typeof RequestBody> }>('/:adviceSetId/ai-user-request', {
    onRequest: requireApiKey, schema: { params: Params, body: RequestBody },
  }, async (request, reply) => {
    const key = request.partnerKey!
    if (!key.adviceRequests) throw new ForbiddenError('This API key does not take requests for advice.')
    const version = await servedFor(cache, key, request.params.adviceSetId)
    request.meteredAdviceSetId = version.adviceSetId
    const decision = await visitors.take(`${key.id}|${request.ip}`, ADVICE_REQUESTS_PER_MINUTE)
    if (!decision.allowed) {
      reply.header('retry-after', String(decision.retryAfterSeconds))
      throw new TooManyRequestsError(decision.retryAfterSeconds)
    }
    const row = await submitEmbedRequest(app.deps, { adviceSetId: version.adviceSetId, apiKeyId: key.id, text: request.body.text })
    return reply.code(201).send({ data: { id: row.id, status: row.status } })
  })
}
