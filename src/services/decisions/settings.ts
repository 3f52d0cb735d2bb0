// What the recorder needs to know per owner and per set, kept for a few seconds so the Advice API asks the database
// once per owner and set, not per request: whether and how the owner records, and which variables are personal.
import type { Db } from '../../db/client.ts'
import { findOwnerDecisionSettings, personalVariableNames } from '../../db/queries/decisions.ts'
import { decisionModeOf, type DecisionMode } from '../../db/schema/index.ts'

const FRESH_MS = 5_000

interface Held<T> { value: T; at: number }

export class DecisionSettingsCache {
  private modes = new Map<string, Held<DecisionMode>>()
  private personal = new Map<number, Held<ReadonlySet<string>>>()
  private loading = new Map<string, Promise<unknown>>()

  constructor(private readonly db: Db, private readonly now: () => number = Date.now) {}

  mode(ownerId: string): DecisionMode | Promise<DecisionMode> {
    return this.read(this.modes, ownerId, `mode|${ownerId}`, async () => {
      const found = await findOwnerDecisionSettings(this.db, ownerId)
      return decisionModeOf(found?.mode)
    })
  }

  personalNames(ownerId: string, adviceSetId: number): ReadonlySet<string> | Promise<ReadonlySet<string>> {
    return this.read(this.personal, adviceSetId, `personal|${adviceSetId}`, async () => new Set(await personalVariableNames(this.db, ownerId, adviceSetId)))
  }

  /** After a change made here, the next request sees it at once (other instances within a few seconds). */
  forgetOwner(ownerId: string): void {
    this.modes.delete(ownerId)
    this.personal.clear()
  }

  private read<K, T>(held: Map<K, Held<T>>, key: K, loadKey: string, load: () => Promise<T>): T | Promise<T> {
    const hit = held.get(key)
    if (hit && this.now() - hit.at < FRESH_MS) return hit.value
    const inFlight = this.loading.get(loadKey) as Promise<T> | undefined
    if (inFlight) return inFlight
    const loaded = load().then((value) => {
      held.set(key, { value, at: this.now() })
      return value
    }).finally(() => this.loading.delete(loadKey))
    this.loading.set(loadKey, loaded)
    // A stale value serves while the fresh one loads, so a warm request never waits.
    return hit ? hit.value : loaded
  }
}
