// /api/adviceset export and import (issue 28): an advice set as an `advice-set@1` file (services/library/portable-*.ts).
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { exportAdviceSet } from '../../services/library/portable-export.ts'
import { documentText } from '../../services/library/portable-format.ts'
import { ValidationError } from '../../services/errors.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { dispositionHeader } from '../header-values.ts'
import { IdParams, StringEnum } from '../schemas.ts'
import { itemId } from './ids.ts'

const ExportQuery = Type.Object({
  version: Type.Optional(Type.String({ maxLength: 10, description: 'A version number; without it, the working draft.' })),
  format: Type.Optional(StringEnum(['json'] as const, { description: 'json (default): the document.' })),
})

function versionNumberOf(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined
  const number = Number(raw)
  if (!/^\d{1,9}$/.test(raw) || number < 1) throw new ValidationError('version', 'version: must be a version number (1, 2, …).')
  return number
}

export const adviceSetPortableApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  app.get('/:id/export', { schema: { params: IdParams, querystring: ExportQuery } }, async (request, reply) => {
    const exported = await exportAdviceSet(deps, actorOf(request), itemId(request.params.id), { versionNumber: versionNumberOf(request.query.version) })
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', dispositionHeader(exported.fileName, 'attachment'))
      .header('cache-control', 'private, no-store')
      .send(documentText(exported.document))
  })
}
