/**
 * Templates are few and rendered often, so compiled forms are kept; the cap keeps a long-running server's memory
 * flat whatever texts pass through. When full, the entry stored longest ago goes first.
 */
export class BoundedMemo<T> {
  private readonly entries = new Map<string, T>()

  constructor(private readonly limit: number) {}

  get(key: string, compute: () => T): T {
    const found = this.entries.get(key)
    if (found !== undefined) return found
    const value = compute()
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(key, value)
    return value
  }

  get size(): number {
    return this.entries.size
  }
}
