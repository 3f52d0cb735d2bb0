// The FileStore contract: where uploaded bytes live, behind one interface with a local-disk and an S3-compatible
// implementation. Files travel as streams; nothing is visible under a key until the staged bytes are committed.
import type { Readable } from 'node:stream'

export interface FileStore {
  readonly kind: 'disk' | 's3'
  /** Fails with a clear message when the store cannot be used (missing bucket, unwritable folder); run at start-up. */
  check(): Promise<void>
  /**
   * Streams `body` to a temporary place, refusing more than `maxBytes` (FileTooLargeError). Nothing is stored under a
   * key until `commit`; a failed or aborted stream leaves nothing behind.
   */
  stage(body: Readable, opts: { maxBytes: number }): Promise<StagedFile>
  /** The stored bytes, or null when there is nothing under `key`. */
  read(key: string): Promise<StoredFile | null>
  exists(key: string): Promise<boolean>
  /** Removes the file; a missing one is not an error. */
  delete(key: string): Promise<void>
  close(): Promise<void>
}

export interface StagedFile {
  size: number
  /** The first bytes (up to HEAD_BYTES), enough to tell the file's type. */
  head: Buffer
  /** Makes the staged bytes the file under `key` (replacing any); after it resolves the file is durably stored. */
  commit(key: string, contentType: string): Promise<void>
  /** Throws the staged bytes away. */
  discard(): Promise<void>
}

export interface StoredFile {
  stream: Readable
  size: number
}

/** Enough for file-type to recognise every format it knows, and for the text sniffing of HTML and SVG. */
export const HEAD_BYTES = 4100

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super('File too large')
    this.name = 'FileTooLargeError'
  }
}

/** Keys are made by the app, never from user input; this keeps a bug from ever reaching outside the store. */
export function assertKey(key: string): void {
  if (!/^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i.test(key) || key.includes('..') || key.length > 500) {
    throw new Error(`Invalid file key: ${key}`)
  }
}
