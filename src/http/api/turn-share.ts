// A share of each turn of the event loop for partner requests. Flat out, the Advice API has a request ready on every
// connection at every turn, and a turn that serves them all leaves everything else waiting that long: the database's
// replies above all, which on the embedded database's thread (and on PostgreSQL) come back as I/O. A transaction of
// ten statements then waited ten such turns while it held the one connection, and authors saving rules waited for
// each other's (bench:soak: writers' p50 1.25 s). Letting a few requests in per turn and the rest at the next turns
// keeps every turn short: a query's round trip under full load went from 6.9 ms to 0.7 ms at the median, and the
// Advice API served more, not less (6,700 req/s against 5,500), as turns that wait less on each other batch better.

/** Partner requests let in per turn of the event loop; the rest wait for the following turns, in order. */
export const PARTNER_REQUESTS_PER_TURN = 2
/**
 * On PostgreSQL, whose connections do not wait for each other, a larger share (bench:soak on 2 cores, Advice API
 * alone / with 10 authors writing, and the writers' p99): at 2 a turn 5,717 / 837 req/s and 149 ms; at 8, 7,345 /
 * 2,506 and 188 ms; at 16, 5,826 / 3,048 and 272 ms. A turn that admits more keeps the writers' replies waiting longer.
 */
export const PARTNER_REQUESTS_PER_SERVER_TURN = 8
/**
 * While a transaction holds the embedded database's one connection: authors' saves wait for it, and it waits a turn
 * for each statement (bench:soak, writers' p99: 361 ms at two a turn, 259 ms at one).
 */
export const PARTNER_REQUESTS_PER_BUSY_TURN = 1

export class TurnShare {
  private admitted = 0
  private scheduled = false
  private readonly waiting: Array<() => void> = []

  /** `busy`: when the smaller share applies (the database has a transaction under way). */
  constructor(
    private readonly busy: () => boolean = () => false,
    private readonly perTurn = PARTNER_REQUESTS_PER_TURN,
    private readonly perBusyTurn = PARTNER_REQUESTS_PER_BUSY_TURN,
  ) {}

  private share(): number {
    return this.busy() ? this.perBusyTurn : this.perTurn
  }

  /** Calls `go` in this turn if its share has room, otherwise in a following one. */
  enter(go: () => void): void {
    if (this.admitted < this.share() && this.waiting.length === 0) {
      this.admitted++
      this.nextTurn()
      go()
      return
    }
    this.waiting.push(go)
    this.nextTurn()
  }

  /** At the end of this turn (setImmediate runs after the turn's I/O): a fresh share, given first to those waiting. */
  private nextTurn(): void {
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(() => {
      this.scheduled = false
      this.admitted = 0
      const share = this.share()
      while (this.admitted < share && this.waiting.length > 0) {
        this.admitted++
        this.waiting.shift()!()
      }
      if (this.waiting.length > 0 || this.admitted > 0) this.nextTurn()
    })
  }
}
