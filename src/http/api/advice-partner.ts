// The partner API (/api/advice, /api/dictionary): routes authenticated by `Authorization: Bearer <key>`, never by
// the session cookie, so CSRF does not apply to them (routes say `config: { csrf: false }`). Here: the key check
// with its per-minute rate limit (one budget per key across these routes), the response headers every partner
// response carries, and usage metering of every authenticated request.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { authenticateApiKey, type AuthenticatedKey } from '../../services/api-keys.ts'
import { recordApiUsage } from '../../services/api-usage.ts'
import { AdviceCache } from '../../services/advice-cache.ts'
import { DomainError } from '../../services/errors.ts'
import { servedVersion } from '../../services/versions.ts'
import { adviceApi } from './advice.ts'
import { dictionaryApi } from './dictionary.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The partner's key, once a partner route authenticated it. */
    partnerKey: AuthenticatedKey | null
    /** The advice set a partner request is metered under: 0 until a set the key may use was found. */
    meteredAdviceSetId: number
  }
}

export const API_VERSION = '1'
/** An incoming X-Request-Id is echoed only when it is a plain token (it ends up in logs and in the partner's). */
const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/
const MINUTE_MS = 60_000

export class ApiRateLimitedError extends DomainError {
  constructor(perMinute: number, seconds: number) {
    super('RATE_LIMITED', `This API key allows ${perMinute} requests a minute. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`, 429)
  }
}

export interface PartnerContext {
  cache: AdviceCache
  /** preHandler: authenticates the Bearer key and counts the request against its rate limit. */
  requireApiKey: (request: FastifyRequest, reply: FastifyReply) => Promise<void>
}

export async function partnerApi(app: FastifyInstance) {
  app.decorateRequest('partnerKey', null)
  app.decorateRequest('meteredAdviceSetId', 0)
  const cache = new AdviceCache((adviceSetId, who) => servedVersion(app.deps.db, adviceSetId, who))
  app.addHook('onClose', async () => cache.close())

  const limiter = app.createRateLimit({
    keyGenerator: (request) => String(request.partnerKey!.id),
    max: (request) => request.partnerKey!.rateLimit,
    timeWindow: MINUTE_MS,
  })

  async function requireApiKey(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    request.partnerKey = await authenticateApiKey(app.deps.db, request.headers.authorization)
    const limit = await limiter(request)
    if (!limit.isAllowed && limit.isExceeded) {
      reply.header('retry-after', String(limit.ttlInSeconds))
      throw new ApiRateLimitedError(limit.max, limit.ttlInSeconds)
    }
  }

  app.addHook('onSend', async (request, reply, payload) => {
    const incoming = request.headers['x-request-id']
    reply.header('x-request-id', typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : request.id)
    reply.header('x-api-version', API_VERSION)
    reply.header('x-response-date', new Date().toISOString())
    return payload
  })

  app.addHook('onResponse', async (request, reply) => {
    const key = request.partnerKey
    if (key === null) return
    recordApiUsage({ keyId: key.id, adviceSetId: request.meteredAdviceSetId, status: reply.statusCode, durationMs: reply.elapsedTime })
  })

  const context: PartnerContext = { cache, requireApiKey }
  await app.register(adviceApi, { prefix: '/advice', ...context })
  await app.register(dictionaryApi, context)
}
