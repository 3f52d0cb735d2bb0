/**
 * A cache for pure work that repeats (compiled templates, formatted values). The cap keeps a long-running
 * server's memory flat whatever passes through; when full it starts over, which costs one recompute per entry and
 * avoids the bookkeeping of finer eviction (deleting a Map's oldest key one at a time degrades as holes pile up).
 */
export class BoundedMemo<T, K = string> {
  private readonly entries = new Map<K, T>()

  constructor(private readonly limit: number) {}

  get(key: K, compute: () => T): T {
    const found = this.entries.get(key)
    if (found !== undefined || this.entries.has(key)) return found as T
    const value = compute()
    this.remember(key, value)
    return value
  }

  /** The value kept for `key`, if any; with remember(), a hot path's lookup that allocates no closure. */
  find(key: K): T | undefined {
    return this.entries.get(key)
  }

  remember(key: K, value: T): void {
    if (this.entries.size >= this.limit) this.entries.clear()
    this.entries.set(key, value)
  }

  get size(): number {
    return this.entries.size
  }
}
