// The partner API (/api/advice, /api/dictionary, /api/decision): routes authenticated by `Authorization: Bearer <key>`, never by
// the session cookie. They are registered outside the browser app's context (src/app.ts), so for them no cookie is
// parsed, no session is made or signed and no CSRF check runs. Here: the key check with its per-minute rate limit
// (one budget per key across the partner routes), the response headers every partner response carries, and usage
// metering of every authenticated request.
import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { authenticateApiKey, cachedApiKey, type AuthenticatedKey } from '../../services/delivery/api-keys.ts'
import { recordApiUsage } from '../../services/delivery/usage.ts'
import { AdviceCache } from '../../services/delivery/cache.ts'
import { DecisionRecorder } from '../../services/decisions/recorder.ts'
import { applyDecisionRetention, ensureDecisionPartitions, foldPastDecisionCounts } from '../../services/decisions/maintenance.ts'
import { createRateLimiter, type RateDecision } from '../../services/delivery/rate-limit.ts'
import { DomainError } from '../../services/errors.ts'
import { servedVersion } from '../../services/publishing/versions.ts'
import { servedFor } from '../../services/delivery/advice-api.ts'
import { externalApiRuntime } from '../../services/integrations/api-runtime.ts'
import { PARTNER_REQUESTS_PER_SERVER_TURN, TurnShare } from './turn-share.ts'
import { embeddedServerOf } from '../../db/client.ts'
import { adviceApi } from './advice.ts'
import { adviceEmbedApi } from './advice-embed.ts'
import { dictionaryApi } from './dictionary.ts'
import { decisionPartnerApi } from './decision-partner.ts'

export interface PartnerContext {
  cache: AdviceCache
  /** Where answers leave their decision records (issue 26). */
  recorder: DecisionRecorder
  /** onRequest hook of every partner route: authenticates the Bearer key (before any body is read) and counts the request against the key's rate limit. */
  requireApiKey: (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void
}

declare module 'fastify' {
  interface FastifyInstance {
    partner: PartnerContext
  }
  interface FastifyRequest {
    /** The partner's key, once a partner route authenticated it. */
    partnerKey: AuthenticatedKey | null
    /** The advice set a partner request is metered under: 0 until a set the key may use was found. */
    meteredAdviceSetId: number
  }
}

export const API_VERSION = '1'
/** An incoming X-Request-Id is echoed only when it is a plain token, so a header cannot carry anything else back. */
const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/

class ApiRateLimitedError extends DomainError {
  constructor(perMinute: number, seconds: number) {
    super('RATE_LIMITED', `This API key allows ${perMinute} requests a minute. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`, 429)
  }
}

/** What every route taking a key shares, wherever it is registered: the advice cache and the key check. */
export const partnerContextPlugin = fp(async function partnerContextPlugin(app: FastifyInstance) {
  app.decorateRequest('partnerKey', null)
  app.decorateRequest('meteredAdviceSetId', 0)
  const cache = new AdviceCache((adviceSetId, who) => servedVersion(app.deps.db, adviceSetId, who), { apis: externalApiRuntime(app.deps), baseUrl: () => app.deps.config.baseUrl })
  const recorder = new DecisionRecorder(app.deps.db, { secret: app.deps.config.secretKey, onError: (err, message) => app.log.error({ err }, message) })
  // The records' monthly partitions: made ahead at start and every six hours, when retention and the counts' fold also run.
  const maintain = () => ensureDecisionPartitions(app.deps.db, new Date())
    .then(() => applyDecisionRetention(app.deps.db, new Date()))
    .then(() => foldPastDecisionCounts(app.deps.db, new Date()))
    .catch((err: unknown) => app.log.error({ err }, 'decision records: partition upkeep failed; it runs again in six hours'))
  app.addHook('onReady', async () => { await maintain() })
  const upkeep = setInterval(() => { void maintain() }, 6 * 60 * 60 * 1000)
  upkeep.unref()
  app.addHook('onClose', async () => {
    clearInterval(upkeep)
    await cache.close()
    await recorder.close()
  })
  // Shared by every instance on a PostgreSQL server; in memory on the embedded database.
  const limiter = createRateLimiter(app.deps.db, { scope: 'key', onError: (err) => app.log.warn({ err }, 'API rate limit: the shared count failed; this instance counted alone') })

  /** undefined, or the 429 to answer. */
  function verdict(reply: FastifyReply, key: AuthenticatedKey, decision: RateDecision): ApiRateLimitedError | undefined {
    if (decision.allowed) return undefined
    reply.header('retry-after', String(decision.retryAfterSeconds))
    return new ApiRateLimitedError(key.rateLimit, decision.retryAfterSeconds)
  }

  /**
   * A refused request is metered under the set its path names when the key may read that set (as the handler would
   * have found it), not under "No valid advice set".
   */
  function refuse(request: FastifyRequest, key: AuthenticatedKey, refusal: ApiRateLimitedError, done: HookHandlerDoneFunction): void {
    const params: unknown = request.params
    const named = typeof params === 'object' && params !== null && 'adviceSetId' in params ? Number(params.adviceSetId) : Number.NaN
    if (!Number.isSafeInteger(named) || named < 1) return done(refusal)
    servedFor(cache, key, named).then((version) => { request.meteredAdviceSetId = version.adviceSetId }, () => undefined).finally(() => done(refusal))
  }

  function decide(request: FastifyRequest, reply: FastifyReply, key: AuthenticatedKey, decision: RateDecision, done: HookHandlerDoneFunction): void {
    const refusal = verdict(reply, key, decision)
    if (refusal) refuse(request, key, refusal, done)
    else done()
  }

  /** The request is the key's from here on, and counts against its limit. */
  function admit(request: FastifyRequest, reply: FastifyReply, key: AuthenticatedKey, done: HookHandlerDoneFunction): void {
    request.partnerKey = key
    const decision = limiter.take(key.id, key.rateLimit)
    if ('then' in decision) decision.then((d) => decide(request, reply, key, d, done), done)
    else decide(request, reply, key, decision, done)
  }

  function checkKey(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const cached = cachedApiKey(app.deps.db, request.headers.authorization)
    if (cached !== undefined) {
      admit(request, reply, cached, done)
      return
    }
    authenticateApiKey(app.deps.db, request.headers.authorization).then((key) => admit(request, reply, key, done), done)
  }

  // A callback hook: on the embedded database a key this instance has just seen (nearly every partner request) is
  // admitted without a promise. Each request waits for its share of a turn of the event loop first (turn-share.ts).
  const served = embeddedServerOf(app.deps.db)
  const turns = served ? new TurnShare(() => served.transactionsOpen() > 0) : new TurnShare(undefined, PARTNER_REQUESTS_PER_SERVER_TURN)
  function requireApiKey(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    turns.enter(() => checkKey(request, reply, done))
  }

  app.decorate('partner', { cache, recorder, requireApiKey })
}, { name: 'partner-context' })

/** The partner response headers and usage metering, for the routes of the (encapsulated) context given. */
export function addPartnerResponseHooks(app: FastifyInstance): void {
  // Callback hooks, not async ones: they run on every partner request and need no promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    const incoming = request.headers['x-request-id']
    reply.header('x-request-id', typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : request.id)
    reply.header('x-api-version', API_VERSION)
    reply.header('x-response-date', new Date().toISOString())
    // An answer is computed from the partner's inputs, which may be personal: no browser or proxy keeps it.
    reply.header('cache-control', 'no-store')
    done(null, payload)
  })

  app.addHook('onResponse', (request, reply, done) => {
    const key = request.partnerKey
    if (key !== null) recordApiUsage({ keyId: key.id, adviceSetId: request.meteredAdviceSetId, status: reply.statusCode, durationMs: reply.elapsedTime })
    done()
  })
}

/** The routes that take only a key (under /api). */
export async function partnerApi(app: FastifyInstance) {
  addPartnerResponseHooks(app)
  await app.register(adviceApi, { prefix: '/advice' })
  await app.register(adviceEmbedApi, { prefix: '/advice' })
  await app.register(dictionaryApi)
  await app.register(decisionPartnerApi)
}
