// Multipart uploads for /api/supplements/upload and the library pages: @fastify/multipart's parts as the upload
// service reads them. Busboy may pass one byte past the limit, so the service (not busboy) is the one that refuses
// a file with "File too large".
import multipart from '@fastify/multipart'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { MAX_UPLOAD_BYTES, type UploadPart } from '../services/files/uploads.ts'
import { DomainError } from '../services/errors.ts'

export async function registerMultipart(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: MAX_UPLOAD_BYTES + 1, files: 1, fields: 10, fieldSize: 16 * 1024, parts: 12 },
  })
}

export class NotMultipartError extends DomainError {
  constructor() {
    super('NOT_MULTIPART', 'file: send the file as multipart/form-data, in the field "file".', 415)
    this.details = { field: 'file' }
  }
}

export async function* uploadParts(request: FastifyRequest): AsyncGenerator<UploadPart> {
  if (!request.isMultipart()) throw new NotMultipartError()
  for await (const part of request.parts()) {
    if (part.type === 'file') yield { kind: 'file', field: part.fieldname, filename: part.filename, stream: part.file }
    else yield { kind: 'field', field: part.fieldname, value: typeof part.value === 'string' ? part.value : String(part.value) }
  }
}
