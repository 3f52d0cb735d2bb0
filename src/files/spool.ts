// Writing a stream to a temporary file on the local disk, counting its bytes and keeping its first ones. Both stores
// stage this way: the disk store inside its own folder (so commit is a rename), the S3 store in the system's
// temporary folder (so the upload to S3 knows its length and never holds the file in memory).
import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { Transform, type Readable, type TransformCallback } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { FileTooLargeError, HEAD_BYTES } from './types.ts'

/** Passes bytes through, failing once more than `maxBytes` went by, and keeps the first HEAD_BYTES. */
export class Meter extends Transform {
  size = 0
  private readonly headChunks: Buffer[] = []
  private headLength = 0

  constructor(private readonly maxBytes: number) {
    super()
  }

  get head(): Buffer {
    return Buffer.concat(this.headChunks, this.headLength)
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length
    if (this.size > this.maxBytes) return done(new FileTooLargeError(this.maxBytes))
    if (this.headLength < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - this.headLength)
      // A copy: the chunk's memory may belong to a larger pooled buffer that must not be kept alive.
      this.headChunks.push(Buffer.from(part))
      this.headLength += part.length
    }
    done(null, chunk)
  }
}

export interface Spooled {
  file: string
  size: number
  head: Buffer
}

/** Streams `body` into a new file in `dir`; on any failure the partial file is removed and the error rethrown. */
export async function spool(dir: string, body: Readable, maxBytes: number): Promise<Spooled> {
  await mkdir(dir, { recursive: true })
  const file = path.join(dir, randomUUID())
  const meter = new Meter(maxBytes)
  // flush: the bytes are on the disk (fsync) before the file counts as staged.
  const out = createWriteStream(file, { flags: 'wx', flush: true })
  try {
    await pipeline(body, meter, out)
  } catch (error) {
    // A body cut off early (the upload's parser failed it) fails the pipeline while the file may still be opening:
    // removed before its stream has closed, the open finishing after the removal left it behind (seen under load).
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()))
    await rm(file, { force: true })
    throw error
  }
  return { file, size: meter.size, head: meter.head }
}
