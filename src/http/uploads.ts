// Multipart uploads for /api/supplements/upload and the library pages: @fastify/multipart's parts as the upload
// service reads them. Busboy may pass one byte past the limit, so the service (not busboy) is the one that refuses
// a file with "File too large".
// A multipart body is read by the handler, not by a content-type parser, so what the input guard does for other
// bodies is done here: text fields and file names that cannot be stored are refused with a 400 naming the field,
// a body cut off or malformed is a 400 (busboy's own errors are plain Errors), and the whole body is capped at the
// route's bodyLimit while it streams (a chunked body declares no length the input guard could check up front).
import multipart from '@fastify/multipart'
import type { Multipart } from '@fastify/multipart'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { IncomingMessage } from 'node:http'
import type { Readable } from 'node:stream'
import { MAX_UPLOAD_BYTES, type UploadPart } from '../services/files/uploads.ts'
import { DomainError, ValidationError } from '../services/errors.ts'
import { assertStorableText, BodyTooLargeError, dropRestOfBody } from './plugins/input-guard.ts'

const MAX_FIELD_BYTES = 16 * 1024

/** The bodyLimit of an upload route: the file, ten fields of at most 16 KB, and the parts' headers and boundaries. */
export const UPLOAD_BODY_LIMIT = MAX_UPLOAD_BYTES + 1024 * 1024

export async function registerMultipart(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: MAX_UPLOAD_BYTES + 1, files: 1, fields: 10, fieldSize: MAX_FIELD_BYTES, parts: 12 },
  })
}

export class NotMultipartError extends DomainError {
  constructor() {
    super('NOT_MULTIPART', 'file: send the file as multipart/form-data, in the field "file".', 415)
    this.details = { field: 'file' }
  }
}

/** Named after the file field: the upload as a whole is what has to be sent again (and the form shows it there). */
class MalformedUploadError extends ValidationError {
  constructor(problem: string) {
    super('file', `file: the multipart/form-data body ${problem}; nothing was saved. Send the whole form again.`)
  }
}

/** Busboy's errors for a body that is not well-formed multipart, and what each means for the sender. */
const BUSBOY_PROBLEMS: Array<[RegExp, string]> = [
  [/unexpected end of multipart data/i, 'ended before its closing boundary (it was cut off)'],
  [/^Malformed part header$/, 'has a part with a malformed header'],
  [/^Multipart: Boundary not found$|^The needle cannot/, 'needs a boundary of 1 to 70 characters in its Content-Type'],
]

/** A 400 for busboy's plain Error about the body's form, or null for any other error. */
function malformedBodyError(error: unknown): MalformedUploadError | null {
  if (!(error instanceof Error) || error.constructor !== Error) return null
  const problem = BUSBOY_PROBLEMS.find(([pattern]) => pattern.test(error.message))
  return problem ? new MalformedUploadError(problem[1]) : null
}

/**
 * Counts the request's bytes from the moment the parser reads it. Past `limit`, the file being stored fails with a
 * 413 and so does the part the handler waits for (the 413's answer drops the rest of the body); if the handler has
 * already stopped reading (it answered otherwise), the rest is dropped from here.
 */
class BodyCap {
  private received = 0
  private file: Readable | null = null
  private reading = true
  private readonly error: BodyTooLargeError
  readonly exceeded: Promise<never>
  private reject: (error: Error) => void = () => {}

  constructor(private readonly raw: IncomingMessage, private readonly limit: number) {
    this.error = new BodyTooLargeError(limit)
    this.exceeded = new Promise<never>((_, reject) => { this.reject = reject })
    this.exceeded.catch(() => {}) // raced against each part; unawaited once the handler has stopped reading
    raw.on('data', this.count)
  }

  private readonly count = (chunk: Buffer): void => {
    this.received += chunk.length
    if (this.received <= this.limit) return
    this.raw.off('data', this.count)
    if (!this.reading) {
      dropRestOfBody(this.raw)
      return
    }
    this.file?.destroy(this.error)
    this.reject(this.error)
  }

  /** The file stream the service is storing now, failed with the 413 if the cap is reached meanwhile. */
  watch(file: Readable): void {
    this.file = file
  }

  /** The handler reads no more parts. */
  stop(): void {
    this.reading = false
  }
}

/** The parts of an upload, each checked: text that can be stored, in plain-text fields, within the field size. */
async function* checkedParts(request: FastifyRequest, fileSize?: number): AsyncGenerator<UploadPart> {
  if (!request.isMultipart()) throw new NotMultipartError()
  const parts = request.parts(fileSize === undefined ? undefined : { limits: { fileSize: fileSize + 1 } })[Symbol.asyncIterator]()
  // The first next() starts the parser, which pipes the request into busboy: bytes are counted from there.
  let pending: Promise<IteratorResult<Multipart>> = parts.next()
  const cap = new BodyCap(request.raw, request.routeOptions.bodyLimit)
  try {
    for (;;) {
      const { done, value: part } = await Promise.race([pending, cap.exceeded])
      if (done) return
      assertStorableText(part.fieldname, 'body')
      if (part.type === 'file') {
        assertStorableText(part.filename, 'file')
        cap.watch(part.file)
        yield { kind: 'file', field: part.fieldname, filename: part.filename, stream: part.file }
      } else {
        if (typeof part.value !== 'string') throw new ValidationError(part.fieldname, `${part.fieldname}: send it as plain text.`)
        if (part.valueTruncated) throw new ValidationError(part.fieldname, `${part.fieldname}: must be at most ${MAX_FIELD_BYTES / 1024} KB.`)
        assertStorableText(part.value, part.fieldname)
        yield { kind: 'field', field: part.fieldname, value: part.value }
      }
      pending = parts.next()
    }
  } finally {
    cap.stop()
  }
}

/**
 * Runs `store` (the upload service) over the request's parts; `fileSize` raises the file's limit above the upload
 * services' 10 MB for a route whose bodyLimit allows it (advice-set files). Its errors pass through, except busboy's about a
 * malformed or cut-off body, which become a 400 (they reach here through the parts and through the file stream).
 */
export async function receiveUpload<T>(request: FastifyRequest, store: (parts: AsyncIterable<UploadPart>) => Promise<T>, opts: { fileSize?: number } = {}): Promise<T> {
  try {
    return await store(checkedParts(request, opts.fileSize))
  } catch (error) {
    throw malformedBodyError(error) ?? error
  }
}
