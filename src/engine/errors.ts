/** Offsets into the expression (or template) source, `end` exclusive, counted in UTF-16 code units like JS strings. */
export interface SourceSpan {
  start: number
  end: number
}

/**
 * The only error type the engine throws. `code` is stable (UPPER_SNAKE) so callers and tests can rely on it;
 * `message` is written for authors, not programmers.
 */
export class EngineError extends Error {
  readonly code: string
  readonly span?: SourceSpan
  readonly nodeId?: string

  constructor(code: string, message: string, opts?: { span?: SourceSpan; nodeId?: string; cause?: unknown }) {
    super(message, opts?.cause === undefined ? undefined : { cause: opts.cause })
    this.name = 'EngineError'
    this.code = code
    if (opts?.span !== undefined) this.span = opts.span
    if (opts?.nodeId !== undefined) this.nodeId = opts.nodeId
  }
}
