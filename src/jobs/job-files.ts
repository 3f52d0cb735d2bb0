// A job's file (an export) is written and read a chunk at a time (job_file_chunks, migration 0046): neither the job
// that writes it nor the request that downloads it holds it whole. An export of a million decision records is most
// of a gigabyte; held whole it was more than a bytea value or a Node.js string may be.
import { Readable } from 'node:stream'
import type { Db } from '../db/client.ts'
import { deleteJobFile, findJobFileChunk, insertJobFile, insertJobFileChunk } from '../db/queries/jobs.ts'

/** The bytes of one chunk row: what a write holds in memory at most, and a download per read. */
export const JOB_FILE_CHUNK_BYTES = 4 * 1024 * 1024

export interface JobFileContent { name: string; contentType: string; content: AsyncIterable<Buffer | string> }

/** Writes the content as it comes, then the file's name, type and size; returns the size. */
export async function writeJobFile(db: Db, jobId: number, file: JobFileContent, chunkBytes = JOB_FILE_CHUNK_BYTES): Promise<number> {
  await deleteJobFile(db, jobId)
  let pending: Buffer[] = []
  let pendingBytes = 0
  let seq = 0
  let size = 0
  for await (const piece of file.content) {
    const bytes = Buffer.isBuffer(piece) ? piece : Buffer.from(piece)
    pending.push(bytes)
    pendingBytes += bytes.length
    size += bytes.length
    if (pendingBytes < chunkBytes) continue
    // Whole chunks go out; the rest waits for more.
    let rest = Buffer.concat(pending, pendingBytes)
    for (; rest.length >= chunkBytes; rest = rest.subarray(chunkBytes)) await insertJobFileChunk(db, { jobId, seq: seq++, bytes: rest.subarray(0, chunkBytes) })
    pending = rest.length > 0 ? [rest] : []
    pendingBytes = rest.length
  }
  if (pendingBytes > 0) await insertJobFileChunk(db, { jobId, seq: seq++, bytes: Buffer.concat(pending, pendingBytes) })
  await insertJobFile(db, { jobId, name: file.name, contentType: file.contentType, size })
  return size
}

/** The file's bytes in order, read a chunk at a time as the reader takes them. */
export function readJobFile(db: Db, jobId: number): Readable {
  return Readable.from((async function* chunks() {
    for (let seq = 0; ; seq++) {
      const bytes = await findJobFileChunk(db, jobId, seq)
      if (!bytes) return
      yield bytes
    }
  })(), { objectMode: false })
}
