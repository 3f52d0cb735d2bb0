// Writes of what is kept in memory (API usage, interview events, best-effort decision records) run one at a time. The
// app's timers write every so often; a flush called meanwhile (the app closing, a test reading the counts) found the
// counts already taken and settled at once, before they were written.

/** `write`, each call starting after the one before it settled: when a call settles, every write before it has too. */
export function oneAtATime<A extends unknown[], R>(write: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  let previous: Promise<unknown> = Promise.resolve()
  return (...args) => {
    const done = previous.then(() => write(...args))
    previous = done.catch(() => undefined)
    return done
  }
}
