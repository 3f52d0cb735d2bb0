// /api/adviceset export and import (issue 28): an advice set as an `advice-set@1` file (services/library/portable-*.ts).
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { exportAdviceSet, zipOf } from '../../services/library/portable-export.ts'
import { importUploadedFile, MAX_IMPORT_BYTES, type UploadedFile } from '../../services/library/portable-upload.ts'
import { documentText } from '../../services/library/portable-format.ts'
import { ValidationError } from '../../services/errors.ts'
import { acceptsToken } from '../plugins/access-tokens.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { dispositionHeader } from '../header-values.ts'
import { IdParams, IdString, StringEnum } from '../schemas.ts'
import { receiveUpload, registerMultipart } from '../uploads.ts'
import type { UploadPart } from '../../services/files/uploads.ts'
import { itemId } from './ids.ts'

const ExportQuery = Type.Object({
  version: Type.Optional(Type.String({ maxLength: 10, description: 'A version number; without it, the working draft.' })),
  format: Type.Optional(StringEnum(['json', 'zip'] as const, { description: 'json (default): the document; zip: set.json and the supplements’ files under files/.' })),
})

function versionNumberOf(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined
  const number = Number(raw)
  if (!/^\d{1,9}$/.test(raw) || number < 1) throw new ValidationError('version', 'version: must be a version number (1, 2, …).')
  return number
}

const ImportQuery = Type.Object({
  dryRun: Type.Optional(StringEnum(['true', 'false'] as const, { description: 'true: show what the import would do and every problem; write nothing.' })),
  into: Type.Optional(IdString),
})

/** The multipart field `file`, read whole (it is parsed whole anyway), within the advice-set file's cap. */
async function fileOf(parts: AsyncIterable<UploadPart>): Promise<UploadedFile> {
  let file: UploadedFile | null = null
  for await (const part of parts) {
    if (part.kind !== 'file') continue
    if (part.field !== 'file' || file) throw new ValidationError('file', 'file: send one file, in the field "file".')
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of part.stream as AsyncIterable<Buffer>) {
      size += chunk.length
      if (size > MAX_IMPORT_BYTES) throw new ValidationError('file', `file: an advice-set file may be at most ${MAX_IMPORT_BYTES / (1024 * 1024)} MB.`)
      chunks.push(chunk)
    }
    file = { filename: part.filename, bytes: Buffer.concat(chunks, size) }
  }
  if (!file) throw new ValidationError('file', 'file: choose an advice-set file (.json or .zip) to import.')
  return file
}

export const adviceSetPortableApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  await registerMultipart(app)
  const deps = app.deps

  app.get('/:id/export', { ...acceptsToken('export'), schema: { params: IdParams, querystring: ExportQuery } }, async (request, reply) => {
    const exported = await exportAdviceSet(deps, actorOf(request), itemId(request.params.id), { versionNumber: versionNumberOf(request.query.version) })
    if (request.query.format === 'zip') {
      return reply
        .type('application/zip')
        .header('content-disposition', dispositionHeader(exported.fileName.replace(/\.json$/, '.zip'), 'attachment'))
        .header('cache-control', 'private, no-store')
        .send(await zipOf(deps, exported))
    }
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', dispositionHeader(exported.fileName, 'attachment'))
      .header('cache-control', 'private, no-store')
      .send(documentText(exported.document))
  })

  app.post('/import', { ...acceptsToken('import'), bodyLimit: MAX_IMPORT_BYTES + 1024 * 1024, schema: { querystring: ImportQuery } }, async (request, reply) => {
    const file = await receiveUpload(request, fileOf, { fileSize: MAX_IMPORT_BYTES })
    const into = request.query.into === undefined ? undefined : itemId(request.query.into, 'into')
    const outcome = await importUploadedFile(deps, actorOf(request), file, { into, dryRun: request.query.dryRun === 'true' })
    if (outcome.kind === 'imported') reply.code(201)
    return { data: outcome.kind === 'imported' ? outcome.result : outcome.plan }
  })
}
