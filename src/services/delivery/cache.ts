// What the Advice API keeps in memory so a request touches neither the database nor the compiler: the served
// version per (set, environment, audience), forgotten as soon as versions announce a change (and refreshed after a
// short time, for changes that are not version changes: a set deleted, made private or given to another owner); and
// compiled versions by version id, which never go stale because versions are immutable.
import { compileAdviceSet, type CompiledAdviceSet } from '../../engine/index.ts'
import { onServedVersionChange, type KeyAudience, type ServedVersion } from '../publishing/versions.ts'
import type { ExternalApiRuntime } from '../integrations/api-runtime.ts'
import { withAbsoluteSourceLinks } from '../files/sources.ts'

const SERVED_TTL_MS = 30_000
/** Served-version entries kept; past it the oldest set's entries go first. */
const SERVED_LIMIT = 10_000
/** Compiled versions kept (a 500-node set compiles to about a megabyte); least recently used go first. */
const COMPILED_LIMIT = 200

interface ServedEntry {
  lookup: Promise<ServedVersion | undefined>
  until: number
  refreshing: boolean
}

/** servedVersion of publishing/versions.ts, bound to a database. */
export type ServedVersionLookup = (adviceSetId: number, who: KeyAudience) => Promise<ServedVersion | undefined>

export interface AdviceCacheOptions {
  now?: () => number
  servedTtlMs?: number
  compiledLimit?: number
  /** Runs API Call nodes (definitions and answers kept in memory); without it such calls stay pending. */
  apis?: ExternalApiRuntime
  /** The app's public address: sources' links into the app (supplements) are made absolute with it, so partners can open them. */
  baseUrl?: () => string
}

export class AdviceCache {
  /** Per advice set, per "environment:audience". */
  private readonly served = new Map<number, Map<string, ServedEntry>>()
  private servedCount = 0
  private readonly compiledByVersion = new Map<number, CompiledAdviceSet>()
  private readonly stopListening: () => void
  private readonly now: () => number
  private readonly servedTtlMs: number
  private readonly compiledLimit: number
  readonly apis: ExternalApiRuntime | undefined
  private readonly baseUrl: (() => string) | undefined

  constructor(private readonly lookUp: ServedVersionLookup, opts: AdviceCacheOptions = {}) {
    this.now = opts.now ?? Date.now
    this.servedTtlMs = opts.servedTtlMs ?? SERVED_TTL_MS
    this.compiledLimit = opts.compiledLimit ?? COMPILED_LIMIT
    this.apis = opts.apis
    this.baseUrl = opts.baseUrl
    this.stopListening = onServedVersionChange((adviceSetId) => this.forgetServed(adviceSetId))
  }

  /**
   * The version a key of this environment and audience gets; concurrent first requests share one lookup. An entry
   * past its time is still answered with while a fresh lookup runs, so no request waits for the refresh.
   */
  servedVersion(adviceSetId: number, who: KeyAudience): Promise<ServedVersion | undefined> {
    const audience = `${who.environment}:${who.audienceId ?? ''}`
    const cached = this.served.get(adviceSetId)?.get(audience)
    if (cached) {
      if (cached.until <= this.now() && !cached.refreshing) this.refresh(adviceSetId, audience, who, cached)
      return cached.lookup
    }
    return this.store(adviceSetId, audience, this.lookUp(adviceSetId, who)).lookup
  }

  private refresh(adviceSetId: number, audience: string, who: KeyAudience, stale: ServedEntry): void {
    stale.refreshing = true
    const lookup = this.lookUp(adviceSetId, who)
    lookup.then(
      () => { if (this.served.get(adviceSetId)?.get(audience) === stale) this.store(adviceSetId, audience, lookup) },
      () => { stale.refreshing = false },
    )
  }

  private store(adviceSetId: number, audience: string, lookup: Promise<ServedVersion | undefined>): ServedEntry {
    let entries = this.served.get(adviceSetId)
    if (!entries) this.served.set(adviceSetId, entries = new Map())
    if (!entries.has(audience)) this.servedCount++
    const entry: ServedEntry = { lookup, until: this.now() + this.servedTtlMs, refreshing: false }
    entries.set(audience, entry)
    // A failed lookup is not an answer: the next request asks the database again.
    lookup.catch(() => { if (this.served.get(adviceSetId)?.get(audience) === entry) this.dropServed(adviceSetId, audience) })
    if (this.servedCount > SERVED_LIMIT) this.forgetServed(this.served.keys().next().value!)
    return entry
  }

  compiled(version: ServedVersion): CompiledAdviceSet {
    const hit = this.compiledByVersion.get(version.id)
    if (hit) {
      // Re-inserted so the map's order is least recently used first.
      this.compiledByVersion.delete(version.id)
      this.compiledByVersion.set(version.id, hit)
      return hit
    }
    const model = this.baseUrl ? withAbsoluteSourceLinks(version.snapshot.model, this.baseUrl()) : version.snapshot.model
    const compiled = compileAdviceSet(model)
    this.compiledByVersion.set(version.id, compiled)
    if (this.compiledByVersion.size > this.compiledLimit) this.compiledByVersion.delete(this.compiledByVersion.keys().next().value!)
    return compiled
  }

  get size(): { served: number; compiled: number } {
    return { served: this.servedCount, compiled: this.compiledByVersion.size }
  }

  forgetServed(adviceSetId: number): void {
    const entries = this.served.get(adviceSetId)
    if (!entries) return
    this.servedCount -= entries.size
    this.served.delete(adviceSetId)
  }

  close(): void {
    this.stopListening()
    this.served.clear()
    this.servedCount = 0
    this.compiledByVersion.clear()
  }

  private dropServed(adviceSetId: number, audience: string): void {
    const entries = this.served.get(adviceSetId)
    if (!entries?.delete(audience)) return
    this.servedCount--
    if (entries.size === 0) this.served.delete(adviceSetId)
  }
}
