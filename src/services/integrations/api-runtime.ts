// What runs with external APIs share per app (per Deps): the answers cache and, for the Advice API, definitions kept
// in memory (so a run whose calls are cached touches neither the database nor the network). Debugger, Advice API,
// embed and scenario runs all call runSetWithApis.
import { compileAdviceSet, evaluate, type CompiledAdviceSet, type EvaluateOptions } from '../../engine/index.ts'
import { findOwnerExternalApis, type ExternalApiRow } from '../../db/queries/external-apis.ts'
import type { Deps } from '../context.ts'
import { sendableOf } from './api-definition.ts'
import { ResponseCache, runWithApis, type ApiRun, type LoadedDefinition, type PinnedResponse } from './api-calls.ts'

/** How long the Advice API trusts definitions it loaded (a save on this instance forgets them at once). */
const DEFINITIONS_TTL_MS = 30_000

const apiIdsByCompiled = new WeakMap<CompiledAdviceSet, string[]>()

/** The external APIs a compiled set's API Call nodes name, each once; [] for nearly every set. */
export function apiIdsOf(compiled: CompiledAdviceSet): string[] {
  let ids = apiIdsByCompiled.get(compiled)
  if (ids === undefined) {
    const found = new Set<string>()
    for (const node of compiled.nodeById.values()) if (node.type === 'apiCall' && node.apiId !== '') found.add(node.apiId)
    apiIdsByCompiled.set(compiled, ids = [...found])
  }
  return ids
}

export function loadedDefinition(row: ExternalApiRow, secretKey: string): LoadedDefinition {
  return {
    apiId: String(row.id), name: row.name, sendable: sendableOf(row, secretKey), timeoutMs: row.timeoutMs,
    mapping: row.responseMapping, cacheTtlSeconds: row.cacheTtlSeconds, revision: row.updatedAt.getTime(),
  }
}

type Definitions = ReadonlyMap<string, LoadedDefinition>

export class ExternalApiRuntime {
  readonly responses = new ResponseCache()
  private readonly definitions = new Map<string, { until: number; loaded: Promise<Definitions>; value?: Definitions }>()

  constructor(private readonly deps: Deps) {}

  /** The owner's live definitions among `apiIds`, read now (debugger runs: always the saved state). */
  async load(ownerId: string, apiIds: string[]): Promise<Definitions> {
    const ids = apiIds.filter((id) => /^\d{1,15}$/.test(id)).map(Number)
    const rows = await findOwnerExternalApis(this.deps.db, ownerId, ids)
    return new Map(rows.map((row) => [String(row.id), loadedDefinition(row, this.deps.config.secretKey)]))
  }

  /** As load(), kept for a short time: synchronous when known, so a cached run stays free of I/O. */
  cached(ownerId: string, apiIds: string[]): Definitions | Promise<Definitions> {
    const key = `${ownerId}:${apiIds.join(',')}`
    const hit = this.definitions.get(key)
    if (hit && hit.until > Date.now()) return hit.value ?? hit.loaded
    const entry: { until: number; loaded: Promise<Definitions>; value?: Definitions } = { until: Date.now() + DEFINITIONS_TTL_MS, loaded: this.load(ownerId, apiIds) }
    entry.loaded.then((value) => { entry.value = value }, () => this.definitions.delete(key))
    this.definitions.set(key, entry)
    return entry.loaded
  }

  /** A definition was saved or deleted: nothing of it is reused from here on. */
  forget(apiId: string): void {
    this.responses.forget(apiId)
    for (const key of this.definitions.keys()) if (key.split(':')[1]!.split(',').includes(apiId)) this.definitions.delete(key)
  }

  /** Runs with the calls answered by these definitions (and pinned responses, by API id). */
  run(compiled: CompiledAdviceSet, inputs: Record<string, unknown>, options: EvaluateOptions, definitions: Definitions, pinned?: ReadonlyMap<string, PinnedResponse>): ApiRun | Promise<ApiRun> {
    return runWithApis(compiled, inputs, options, { definitions, outbound: this.deps.outbound, cache: this.responses, ...(pinned ? { pinned } : {}) })
  }
}

const runtimes = new WeakMap<Deps, ExternalApiRuntime>()

export function externalApiRuntime(deps: Deps): ExternalApiRuntime {
  let runtime = runtimes.get(deps)
  if (!runtime) runtimes.set(deps, runtime = new ExternalApiRuntime(deps))
  return runtime
}

export interface SetRunRequest {
  /** The owner of the advice set: its definitions are the ones its API Call nodes may call. */
  ownerId: string
  compiled: CompiledAdviceSet
  inputs: Record<string, unknown>
  options: EvaluateOptions
  /** Recorded answers by API id (the definition id as text): those APIs are not called. Scenario runs use this. */
  pinned?: ReadonlyMap<string, PinnedResponse>
  /** Definitions as saved now (default) or as the Advice API keeps them for a short time. */
  definitions?: 'fresh' | 'cached'
}

/**
 * A run of a set with its API Call nodes answered: the one entry point for every caller (debugger, Advice API, embed,
 * scenarios). A set without API Call nodes runs as evaluate() does, with no exchanges.
 */
export async function runSetWithApis(deps: Deps, request: SetRunRequest): Promise<ApiRun> {
  const ids = apiIdsOf(request.compiled)
  if (ids.length === 0) return { result: evaluate(request.compiled, request.inputs, request.options), exchanges: [], rounds: 1 }
  const runtime = externalApiRuntime(deps)
  const definitions = request.definitions === 'cached' ? await runtime.cached(request.ownerId, ids) : await runtime.load(request.ownerId, ids)
  return runtime.run(request.compiled, request.inputs, request.options, definitions, request.pinned)
}

/** For callers holding a model rather than a compiled set (scenario runs of a working draft). */
export function runModelWithApis(deps: Deps, request: Omit<SetRunRequest, 'compiled'> & { model: Parameters<typeof compileAdviceSet>[0] }): Promise<ApiRun> {
  const { model, ...rest } = request
  return runSetWithApis(deps, { ...rest, compiled: compileAdviceSet(model) })
}

export type { ApiRun, PinnedResponse }
