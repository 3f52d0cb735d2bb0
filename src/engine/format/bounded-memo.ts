/**
 * A cache for pure work that repeats (compiled templates, formatted values). The cap keeps a long-running
 * server's memory flat whatever passes through; when full it starts over, which costs one recompute per entry and
 * avoids the bookkeeping of finer eviction (deleting a Map's oldest key one at a time degrades as holes pile up).
 */
export class BoundedMemo<T> {
  private readonly entries = new Map<string, T>()

  constructor(private readonly limit: number) {}

  get(key: string, compute: () => T): T {
    const found = this.entries.get(key)
    if (found !== undefined || this.entries.has(key)) return found as T
    const value = compute()
    if (this.entries.size >= this.limit) this.entries.clear()
    this.entries.set(key, value)
    return value
  }

  get size(): number {
    return this.entries.size
  }
}
