// The Advice API for partners (issue 7): a key's request for a set runs the version that key is served — published,
// preview, or its audience's — never the working draft. Everything a request needs besides the run itself comes
// from AdviceCache, so a warm request does no I/O.
import { evaluate, type CompiledAdviceSet, type ContentType, type EngineResult } from '../../engine/index.ts'
import { apiIdsOf, type ExternalApiRuntime } from '../integrations/api-runtime.ts'
import type { AuthenticatedKey } from './api-keys.ts'
import type { AdviceCache } from './cache.ts'
import type { ResponseShape } from './fields.ts'
import { checkInputs } from './inputs.ts'
import { recordAdviceRun } from './interview-events.ts'
import { adviceJson } from './response-json.ts'
import { adviceSetInfo, legacyItems, type AdviceSetInfo, type LegacyItem } from './response.ts'
import { PROVIDER_OWNER_ID } from '../context.ts'
import { ForbiddenError, NotFoundError } from '../errors.ts'
import type { ServedVersion } from '../publishing/versions.ts'
import type { DecisionEndpoint } from '../decisions/build.ts'
import type { DecisionRecorder, Recorded } from '../decisions/recorder.ts'

/** Where an html chip links to: the question that set the value, as a fragment the partner's page can answer to. */
export function questionHref(questionNodeId: string): string {
  return `#question-${questionNodeId}`
}

/** Sets a key reads: its owner's, the provider's and public ones; when the key lists sets, only those of them. */
export function keyMayRead(key: AuthenticatedKey, adviceSetId: number, version: Pick<ServedVersion, 'ownerId' | 'isPublic'>): boolean {
  if (key.allowedAdviceSetIds.length > 0 && !key.allowedAdviceSetIds.includes(adviceSetId)) return false
  return version.ownerId === key.ownerId || version.ownerId === PROVIDER_OWNER_ID || version.isPublic
}

/** The version this key is served for the set; 404 when there is none or the key may not read the set. */
export async function servedFor(cache: AdviceCache, key: AuthenticatedKey, adviceSetId: number): Promise<ServedVersion> {
  const version = await cache.servedVersion(adviceSetId, { environment: key.environment, audienceId: key.audienceId })
  if (!version || !keyMayRead(key, adviceSetId, version)) {
    throw new NotFoundError(`No ${key.environment === 'preview' ? 'preview or published' : 'published'} advice set ${adviceSetId} for this API key.`)
  }
  return version
}

export interface AdviceRequest {
  inputs: Record<string, unknown>
  contentType: ContentType
  /** A step of the embed's interview, which counts its interviews itself: not a partner's run. */
  fromEmbed?: boolean
  /** Where the answer's decision record goes; none in benchmarks of the engine path alone. */
  recorder?: DecisionRecorder
  receivedAt?: Date
}

interface Ran { compiled: CompiledAdviceSet; result: EngineResult; micros: number }

/** An answer and, when its owner records answers, its decision record (see services/decisions). */
export interface Answer<T> { body: T; recorded: Recorded | null }

/**
 * Runs a served version: inputs checked first (400 naming the variable), then the engine with the key's owner. A set
 * with API Call nodes calls its owner's external APIs (external-api runtime): synchronously when their answers are
 * cached, else once they have arrived; a failed call is incomplete advice for its rule, never an error of the request.
 */
function run(cache: AdviceCache, key: AuthenticatedKey, version: ServedVersion, request: AdviceRequest, trace: boolean, explain = false): Ran | Promise<Ran> {
  const compiled = cache.compiled(version)
  checkInputs(compiled, request.inputs)
  // The moment of the request is the run's "now", so a replay of its record computes dates alike.
  const options = {
    context: 'run' as const, contentType: request.contentType, questionHref, apiKeyOwnerId: key.ownerId, trace,
    ...(explain ? { explain } : {}), ...(request.receivedAt ? { now: request.receivedAt } : {}),
  }
  const apis = cache.apis
  const apiIds = apis === undefined ? NO_APIS : apiIdsOf(compiled)
  const started = performance.now()
  if (apiIds.length === 0) {
    const result = evaluate(compiled, request.inputs, options)
    return counted(version, request, { compiled, result, micros: microsSince(started) })
  }
  const withDefinitions = (definitions: Parameters<ExternalApiRuntime['run']>[3]): Ran | Promise<Ran> => {
    const ran = apis!.run(compiled, request.inputs, options, definitions)
    return ran instanceof Promise ? ran.then(({ result }) => counted(version, request, { compiled, result, micros: microsSince(started) })) : counted(version, request, { compiled, result: ran.result, micros: microsSince(started) })
  }
  const definitions = apis!.cached(version.ownerId, apiIds)
  return definitions instanceof Promise ? definitions.then(withDefinitions) : withDefinitions(definitions)
}

/**
 * The engine's time in µs. A function of the module, not a closure made per request: the `npm start` loader (tsx,
 * esbuild keeping names) names every closure made per request, which bench:api's profile showed at 2 µs a request.
 */
function microsSince(started: number): number {
  return (performance.now() - started) * 1000
}

/** A partner's finished run counts as a run of its set (interview analytics; the embed counts its interviews itself). */
function counted(version: ServedVersion, request: AdviceRequest, ran: Ran): Ran {
  if (!request.fromEmbed) recordAdviceRun(version.adviceSetId, ran.result.done)
  return ran
}

const NO_APIS: string[] = []

function then<T, R>(value: T | Promise<T>, next: (value: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(next) : next(value)
}

/** The answer's decision record, when a recorder is given and the set's owner records answers. */
function recordOf(key: AuthenticatedKey, version: ServedVersion, request: AdviceRequest, endpoint: DecisionEndpoint, ran: Ran): Recorded | null | Promise<Recorded | null> {
  if (!request.recorder) return null
  return request.recorder.record({
    key, version, endpoint: request.fromEmbed ? 'embed' : endpoint, contentType: request.contentType, inputs: request.inputs,
    compiled: ran.compiled, result: ran.result, engineMicros: ran.micros, receivedAt: request.receivedAt ?? new Date(),
  })
}

/**
 * The response body, `{"data":{...}}`, as JSON text (response-json.ts), with its decision record; a promise only when
 * API calls had to be made or the recorder had to read its settings.
 */
export function adviceJsonFor(cache: AdviceCache, key: AuthenticatedKey, version: ServedVersion, request: AdviceRequest & { shape: ResponseShape }): Answer<string> | Promise<Answer<string>> {
  if (request.shape.explain && !key.explain) {
    throw new ForbiddenError('explain: this API key may not ask for explanations. An admin can allow them in the key\'s settings.')
  }
  return then(run(cache, key, version, request, false, request.shape.explain), (ran) => {
    const body = adviceJson(ran.result, version, ran.compiled, request.shape)
    return then(recordOf(key, version, request, 'api', ran), (recorded) => ({ body, recorded }))
  })
}

export interface LegacyData {
  adviceSet: AdviceSetInfo
  /** True when nothing is left to ask. */
  done: boolean
  items: LegacyItem[]
}

export function legacyAdviceFor(cache: AdviceCache, key: AuthenticatedKey, version: ServedVersion, request: AdviceRequest): Answer<LegacyData> | Promise<Answer<LegacyData>> {
  return then(run(cache, key, version, request, true), (ran) => {
    const body = { adviceSet: adviceSetInfo(version), done: ran.result.done, items: legacyItems(ran.result) }
    return then(recordOf(key, version, request, 'legacy', ran), (recorded) => ({ body, recorded }))
  })
}
