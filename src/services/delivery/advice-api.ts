// The Advice API for partners (issue 7): a key's request for a set runs the version that key is served — published,
// preview, or its audience's — never the working draft. Everything a request needs besides the run itself comes
// from AdviceCache, so a warm request does no I/O.
import { evaluate, type ContentType } from '../../engine/index.ts'
import type { AuthenticatedKey } from './api-keys.ts'
import type { AdviceCache } from './cache.ts'
import type { ResponseShape } from './fields.ts'
import { checkInputs } from './inputs.ts'
import { recordAdviceRunEvents } from './interview-events.ts'
import { adviceJson } from './response-json.ts'
import { adviceSetInfo, legacyItems, type AdviceSetInfo, type LegacyItem } from './response.ts'
import { PROVIDER_OWNER_ID } from '../context.ts'
import { NotFoundError } from '../errors.ts'
import type { ServedVersion } from '../publishing/versions.ts'

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
}

/** Runs a served version: inputs checked first (400 naming the variable), then the engine with the key's owner. */
function run(cache: AdviceCache, key: AuthenticatedKey, version: ServedVersion, request: AdviceRequest, trace: boolean) {
  const compiled = cache.compiled(version)
  checkInputs(compiled, request.inputs)
  const result = evaluate(compiled, request.inputs, { context: 'run', contentType: request.contentType, questionHref, apiKeyOwnerId: key.ownerId, trace })
  recordAdviceRunEvents(version.adviceSetId, result.inputRequests.length, result.currentFocus?.variable)
  return { compiled, result }
}

/** The response body, `{"data":{...}}`, as JSON text (response-json.ts). */
export function adviceJsonFor(cache: AdviceCache, key: AuthenticatedKey, version: ServedVersion, request: AdviceRequest & { shape: ResponseShape }): string {
  const { compiled, result } = run(cache, key, version, request, false)
  return adviceJson(result, version, compiled, request.shape)
}

export interface LegacyData {
  adviceSet: AdviceSetInfo
  /** True when nothing is left to ask. */
  done: boolean
  items: LegacyItem[]
}

export function legacyAdviceFor(cache: AdviceCache, key: AuthenticatedKey, version: ServedVersion, request: AdviceRequest): LegacyData {
  const { result } = run(cache, key, version, request, true)
  return { adviceSet: adviceSetInfo(version), done: result.done, items: legacyItems(result) }
}
