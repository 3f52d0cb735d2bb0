// POST /api/adviceset/{id}/decisions/export (issue 26): starts the export of a set's decision records with the list's
// filters; 202 with the job (its progress and download: /api/job/{id}).
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { DECISION_EXPORT_FORMATS, planDecisionExport, startDecisionExportJob } from '../../services/decisions/export.ts'
import { DECISION_STATUSES } from '../../services/decisions/filters.ts'
import { getJob } from '../../services/operations/jobs.ts'
import { sameOriginPath } from '../header-values.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { IdString, StringEnum } from '../schemas.ts'
import { itemId } from './ids.ts'

const SetParams = Type.Object({ id: IdString })
const ExportBody = Type.Object({
  format: StringEnum(DECISION_EXPORT_FORMATS),
  /** UTC days (YYYY-MM-DD; `to` includes its day) or ISO 8601 moments, as the list takes them. */
  from: Type.Optional(Type.String({ maxLength: 40 })),
  to: Type.Optional(Type.String({ maxLength: 40 })),
  /** An API key id. */
  key: Type.Optional(Type.String({ maxLength: 12 })),
  version: Type.Optional(Type.String({ maxLength: 12 })),
  /** An advice node id the answer gave. */
  advice: Type.Optional(Type.String({ maxLength: 64 })),
  status: Type.Optional(StringEnum(DECISION_STATUSES)),
  /** yes: only answers with errors; no: only those without. */
  errors: Type.Optional(StringEnum(['yes', 'no'])),
}, { additionalProperties: false })

export const decisionExportApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  app.post('/:id/decisions/export', { schema: { params: SetParams, body: ExportBody } }, async (request, reply) => {
    const actor = actorOf(request)
    const { format, ...filters } = request.body
    const plan = await planDecisionExport(deps, actor, itemId(request.params.id), format, filters)
    const job = await startDecisionExportJob(deps, actor, plan)
    reply.code(202).header('location', sameOriginPath(`/api/job/${job.id}`, deps.config.baseUrl) ?? '/api/job')
    return { data: await getJob(deps, actor, job.id) }
  })
}
