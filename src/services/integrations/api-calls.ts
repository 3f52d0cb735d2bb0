// Running an advice set whose API Call nodes call external APIs. The engine stays pure: it asks the port (engine
// ApiPort) for each call's value and reports the calls it could not answer yet. A run here is rounds of: run →
// collect the pending calls (the engine goes on past a pending call to the next rule, so the calls of every rule
// it can reach come in one round) → fetch them in parallel through src/net → run again with the answers, until
// nothing is pending (at most MAX_ROUNDS). Answers are kept per definition and request (everything that is sent)
// for the definition's cache time, so a cached call costs a map lookup and the whole run stays synchronous.
// Failures (refused address, timeout, status ≥ 400, no JSON, nothing at a mapped path) become the call's failure:
// its rule is incomplete advice naming the reason, the other rules run — never a 500.
import { apiFailure, evaluate, formatDateTime, type ApiPort, type CompiledAdviceSet, type EngineResult, type EvaluateOptions, type Value } from '../../engine/index.ts'
import { OutboundError, type Outbound } from '../../net/index.ts'
import type { ResponseMappingEntry } from '../../db/schema/index.ts'
import { buildRequest, maskedRequest, MissingValueError, requestFingerprint, type BuiltRequest, type SendableDefinition } from './api-request.ts'
import { mapValue, type MappedValue } from './response-mapping.ts'

export const MAX_ROUNDS = 8
/** The part of an answer's body kept to show (debugger, test panel); mapping reads the whole parsed body. */
const SHOWN_BODY_CHARS = 20_000

/** A definition ready to be called during runs (secret headers in clear: server-side only). */
export interface LoadedDefinition {
  /** The id API Call nodes name (rule_nodes.api_id). */
  apiId: string
  name: string
  sendable: SendableDefinition
  timeoutMs: number
  mapping: ResponseMappingEntry[]
  cacheTtlSeconds: number
  /** Changes when the definition is saved, so answers to an older definition are not reused. */
  revision: number
}

/** A recorded answer a run uses instead of calling the API (scenarios pin them so their runs are repeatable). */
export interface PinnedResponse {
  status?: number
  /** The JSON answer: parsed, or as text. */
  body: unknown
}

export interface ApiAnswer {
  apiId: string
  name: string
  request: ReturnType<typeof maskedRequest>
  fetchedAt: Date
  status: number | null
  timeMs: number | null
  headers: Record<string, string>
  /** The body as text, cut to SHOWN_BODY_CHARS. */
  body: string
  /** The parsed JSON body, when there is one. */
  document?: unknown
  error?: { code: string; message: string }
  pinned: boolean
  /** Each mapping's value, worked out on first use. */
  mapped: Map<string, MappedValue>
  /** Its Data_Api_Sources entry, made on first use. */
  source?: string
}

/** One API Call node's use of an answer in the final round: what the debugger shows on the node. */
export interface ApiExchange {
  nodeId: string
  variable: string
  answer: ApiAnswer
  fromCache: boolean
  value: Value | null
  error: { code: string; message: string } | null
}

export interface ApiRun {
  result: EngineResult
  exchanges: ApiExchange[]
  rounds: number
}

export interface ApiRunContext {
  definitions: ReadonlyMap<string, LoadedDefinition>
  outbound: Outbound
  cache: ResponseCache
  /** By API id (the definition's id as text). */
  pinned?: ReadonlyMap<string, PinnedResponse>
}

/** Answers per definition, revision and request, each for its definition's cache time; concurrent misses share one fetch. */
export class ResponseCache {
  private readonly entries = new Map<string, { answer: ApiAnswer; until: number }>()
  private readonly inFlight = new Map<string, Promise<ApiAnswer>>()

  constructor(private readonly limit = 5000, private readonly now: () => number = Date.now) {}

  fresh(key: string): ApiAnswer | undefined {
    const entry = this.entries.get(key)
    if (entry === undefined) return undefined
    if (entry.until > this.now()) return entry.answer
    this.entries.delete(key)
    return undefined
  }

  /** The answer for `key`: fetched once however many runs ask at the same time; kept when it succeeded. */
  fetch(key: string, ttlSeconds: number, load: () => Promise<ApiAnswer>): Promise<ApiAnswer> {
    const running = this.inFlight.get(key)
    if (running) return running
    const promise = load().then((answer) => {
      if (answer.error === undefined && ttlSeconds > 0) {
        this.entries.delete(key)
        this.entries.set(key, { answer, until: this.now() + ttlSeconds * 1000 })
        if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!)
      }
      return answer
    }).finally(() => this.inFlight.delete(key))
    this.inFlight.set(key, promise)
    return promise
  }

  /** Forgets every answer of one definition (saved or deleted). */
  forget(apiId: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(`${apiId}:`)) this.entries.delete(key)
  }

  get size(): number {
    return this.entries.size
  }
}

function cacheKey(definition: LoadedDefinition, request: BuiltRequest): string {
  return `${definition.apiId}:${definition.revision}:${requestFingerprint(request)}`
}

/** "Rates (fetched Nov 26, 2026 10:38 UTC)": people read it in advice; a run has no viewer, so its zone is UTC, said so. */
function sourceEntry(answer: ApiAnswer): string {
  answer.source ??= `${answer.name} (${answer.pinned ? 'recorded response' : `fetched ${formatDateTime(answer.fetchedAt, 'UTC')} UTC`})`
  return answer.source
}

function answerOf(definition: LoadedDefinition, request: BuiltRequest, parts: Partial<ApiAnswer>): ApiAnswer {
  return {
    apiId: definition.apiId, name: definition.name, request: maskedRequest(request), fetchedAt: new Date(), status: null, timeMs: null,
    headers: {}, body: '', pinned: false, mapped: new Map(), ...parts,
  }
}

/** Parses a body as JSON; the answer's failure when it is not. */
function withDocument(answer: ApiAnswer, text: string): ApiAnswer {
  if (answer.status !== null && answer.status >= 400) {
    return { ...answer, error: { code: 'API_STATUS', message: `The external API "${answer.name}" answered with status ${answer.status}` } }
  }
  try {
    return { ...answer, document: JSON.parse(text) }
  } catch {
    return { ...answer, error: { code: 'API_RESPONSE', message: `The external API "${answer.name}" did not answer with JSON` } }
  }
}

/** Sends the request through src/net; every failure is an answer carrying its reason, never a throw. */
export async function callApi(outbound: Outbound, definition: LoadedDefinition, request: BuiltRequest): Promise<ApiAnswer> {
  try {
    const response = await outbound.send({ url: request.url, method: request.method, headers: request.headers, body: request.body, timeoutMs: definition.timeoutMs })
    const text = response.body.toString('utf8')
    return withDocument(answerOf(definition, request, {
      status: response.status, timeMs: response.timeMs, headers: response.headers, body: text.slice(0, SHOWN_BODY_CHARS),
    }), text)
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error
    const reason = error.code === 'TIMEOUT' ? `did not answer within ${definition.timeoutMs} ms` : `could not be reached: ${error.message.replace(/\.$/, '')}`
    return answerOf(definition, request, { error: { code: `API_${error.code}`, message: `The external API "${definition.name}" ${reason}` } })
  }
}

function pinnedAnswer(definition: LoadedDefinition, request: BuiltRequest, pin: PinnedResponse): ApiAnswer {
  const text = typeof pin.body === 'string' ? pin.body : JSON.stringify(pin.body ?? null)
  return withDocument(answerOf(definition, request, { status: pin.status ?? 200, body: text.slice(0, SHOWN_BODY_CHARS), pinned: true, timeMs: 0 }), text)
}

function mapped(answer: ApiAnswer, mapping: ResponseMappingEntry): MappedValue {
  let value = answer.mapped.get(mapping.variable)
  if (value === undefined) answer.mapped.set(mapping.variable, value = mapValue(answer.document, mapping))
  return value
}

interface Round {
  result: EngineResult
  pending: Map<string, { definition: LoadedDefinition; request: BuiltRequest }>
  used: Array<{ nodeId: string; variable: string; key: string }>
}

/**
 * Runs `compiled` with its API calls answered: synchronously when every answer is at hand (cached or pinned), else
 * after fetching what is missing. `options` are the engine's; its apiPort is this module's.
 */
export function runWithApis(compiled: CompiledAdviceSet, inputs: Record<string, unknown>, options: EvaluateOptions, context: ApiRunContext): ApiRun | Promise<ApiRun> {
  const answers = new Map<string, ApiAnswer>()
  const fromCache = new Set<string>()

  const round = (lastRound: boolean): Round => {
    const pending: Round['pending'] = new Map()
    const used: Round['used'] = []
    const port: ApiPort = (apiId, request) => {
      const definition = context.definitions.get(apiId)
      if (!definition) return apiFailure('API_UNKNOWN', `There is no external API ${apiId} that this advice set may call`)
      const mapping = definition.mapping.find((m) => m.variable === request.variable)
      if (!mapping) return apiFailure('API_MAPPING', `The external API "${definition.name}" maps no value to {{${request.variable}}}`)
      let built: BuiltRequest
      try {
        built = buildRequest(definition.sendable, request.valueOf)
      } catch (error) {
        if (!(error instanceof MissingValueError)) throw error
        return apiFailure('API_INPUT', `The external API "${definition.name}" needs {{${error.variable}}}, which has no value`)
      }
      const key = cacheKey(definition, built)
      let answer = answers.get(key)
      if (answer === undefined) {
        const pin = context.pinned?.get(apiId)
        answer = pin ? pinnedAnswer(definition, built, pin) : context.cache.fresh(key)
        if (answer !== undefined) {
          answers.set(key, answer)
          if (!pin) fromCache.add(key)
        }
      }
      if (answer === undefined) {
        if (lastRound) return apiFailure('API_ROUNDS', `The external API "${definition.name}" depends on more than ${MAX_ROUNDS} rounds of other calls`)
        pending.set(key, { definition, request: built })
        return undefined
      }
      used.push({ nodeId: request.nodeId, variable: request.variable, key })
      request.useSource(sourceEntry(answer))
      if (answer.error) return apiFailure(answer.error.code, answer.error.message)
      const value = mapped(answer, mapping)
      return value.ok ? value.value : apiFailure('API_MAPPING', `The external API "${definition.name}" gave no usable {{${mapping.variable}}}: ${value.message}`)
    }
    return { result: evaluate(compiled, inputs, { ...options, apiPort: port }), pending, used }
  }

  const finish = (last: Round, rounds: number): ApiRun => ({
    result: last.result,
    rounds,
    exchanges: last.used.map(({ nodeId, variable, key }) => {
      const answer = answers.get(key)!
      const mapping = context.definitions.get(answer.apiId)!.mapping.find((m) => m.variable === variable)!
      const value = answer.error ? null : mapped(answer, mapping)
      const error = answer.error ?? (value && !value.ok ? { code: 'API_MAPPING', message: value.message } : null)
      return { nodeId, variable, answer, fromCache: fromCache.has(key), value: value?.ok ? value.value : null, error }
    }),
  })

  const first = round(false)
  if (first.pending.size === 0) return finish(first, 1)
  return (async () => {
    let current = first
    let rounds = 1
    while (current.pending.size > 0) {
      await Promise.all([...current.pending].map(async ([key, { definition, request }]) => {
        answers.set(key, await context.cache.fetch(key, definition.cacheTtlSeconds, () => callApi(context.outbound, definition, request)))
      }))
      rounds++
      current = round(rounds >= MAX_ROUNDS)
    }
    return finish(current, rounds)
  })()
}

/** An API Call node's exchange as the debugger shows it (in the trace and on the node): the request masked. */
export interface ApiCallView {
  nodeId: string
  apiId: string
  name: string
  variable: string
  request: ApiAnswer['request']
  response: { status: number; timeMs: number | null; headers: Record<string, string>; body: string } | null
  error: { code: string; message: string } | null
  fromCache: boolean
  pinned: boolean
  fetchedAt: string
  value: Value | null
}

export function apiCallView(exchange: ApiExchange): ApiCallView {
  const { answer } = exchange
  return {
    nodeId: exchange.nodeId, apiId: answer.apiId, name: answer.name, variable: exchange.variable, request: answer.request,
    response: answer.status === null ? null : { status: answer.status, timeMs: answer.timeMs, headers: answer.headers, body: answer.body },
    error: exchange.error, fromCache: exchange.fromCache, pinned: answer.pinned, fetchedAt: answer.fetchedAt.toISOString(), value: exchange.value,
  }
}
