// Decision tables (issue 28, point 5): POST /api/adviceset/import/table (multipart: the CSV or XLSX in `file`; `into`,
// `hitPolicy`, `name`, `dryRun` as form fields or query parameters) and GET /api/rule/{id}/table.xlsx.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { importDecisionTable, ruleTableXlsx } from '../../services/authoring/decision-table-import.ts'
import { dispositionHeader } from '../header-values.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { IdParams, IdString, StringEnum } from '../schemas.ts'
import { receiveUpload, registerMultipart, UPLOAD_BODY_LIMIT } from '../uploads.ts'
import { itemId } from './ids.ts'
import { acceptsToken } from '../plugins/access-tokens.ts'

const ImportQuery = Type.Object({
  into: Type.Optional(IdString),
  hitPolicy: Type.Optional(StringEnum(['first', 'collect'])),
  name: Type.Optional(Type.String({ maxLength: 200 })),
  dryRun: Type.Optional(StringEnum(['true', 'false'])),
}, { additionalProperties: false })

export const decisionTableApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps
  await registerMultipart(app)

  app.post('/adviceset/import/table', {
    ...acceptsToken('import'),
    bodyLimit: UPLOAD_BODY_LIMIT,
    schema: { querystring: ImportQuery },
  }, async (request, reply) => {
    const preview = await receiveUpload(request, (parts) => importDecisionTable(deps, actorOf(request), parts, request.query))
    reply.code(preview.created ? 201 : 200)
    return { data: preview }
  })

  app.get('/rule/:id/table.xlsx', { schema: { params: IdParams } }, async (request, reply) => {
    const file = await ruleTableXlsx(deps, actorOf(request), itemId(request.params.id))
    reply.type(file.contentType).header('content-disposition', dispositionHeader(file.filename, 'attachment'))
    return reply.send(file.bytes)
  })
}
