// Loading a code-split chunk with the SPEC's time limit and an error that says which chunk failed and how.

export const CHUNK_LOAD_TIMEOUT_MS = 120_000

/** `network`: the browser could not fetch the module; `evaluation`: it arrived but threw while running. */
export type ChunkFailure = 'timeout' | 'network' | 'evaluation'

export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError'

  constructor(readonly chunk: string, readonly failure: ChunkFailure, options?: ErrorOptions) {
    super(`Loading chunk ${chunk} failed (${failure})`, options)
  }
}

// Browsers reject a failed dynamic import() with a TypeError; anything else was thrown by the module itself.
function classify(error: unknown): ChunkFailure {
  return error instanceof TypeError ? 'network' : 'evaluation'
}

export function loadChunk<T>(chunk: string, load: () => Promise<T>, timeoutMs = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(chunk, 'timeout')), timeoutMs)
    load().then(
      (module) => { clearTimeout(timer); resolve(module) },
      (error: unknown) => { clearTimeout(timer); reject(new ChunkLoadError(chunk, classify(error), { cause: error })) },
    )
  })
}
