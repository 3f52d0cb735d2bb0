// Long work on the thread that serves requests (batches, replays, background tasks, buffered writes) gives way
// between its slices.

/** Resolves once the event loop has turned, so the requests waiting meanwhile are served first. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve))
}
