// /api/export (SPEC §7): questions/data[.{resFormat}] and ai-user-requests/data.{resFormat}; activity/data.{resFormat} (ours) — the file streamed in
// the response, or, above the inline limit (or with ?job=1), 202 with the job that prepares it (its result links
// the download).
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { getJob } from '../../services/operations/jobs.ts'
import {
  auditExport, CONTENT_TYPES, EXPORT_FORMATS, EXPORT_INLINE_LIMIT, exportStream, planExport, startExportJob, type ExportFormat, type ExportKind,
} from '../../services/operations/export.ts'
import { dispositionHeader, sameOriginPath } from '../header-values.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { StringEnum } from '../schemas.ts'

const ExportQuery = Type.Object({
  /** Provider admins: whose data (default: their own owner's). */
  ownerId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  /** `1`: prepare the file as a job even when it is small. */
  job: Type.Optional(StringEnum(['1'])),
}, { additionalProperties: false })
const FormatParams = Type.Object({ resFormat: StringEnum(EXPORT_FORMATS) })

export const exportApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  async function answer(request: FastifyRequest, reply: FastifyReply, kind: ExportKind, format: ExportFormat, query: { ownerId?: string; job?: '1' }) {
    const actor = actorOf(request)
    const plan = await planExport(deps, actor, kind, format, query.ownerId)
    if (query.job === '1' || plan.rows > EXPORT_INLINE_LIMIT) {
      const job = await startExportJob(deps, actor, plan)
      reply.code(202).header('location', sameOriginPath(`/api/job/${job.id}`, deps.config.baseUrl) ?? '/api/job')
      return { data: await getJob(deps, actor, job.id) }
    }
    await auditExport(deps, actor, plan)
    reply.type(CONTENT_TYPES[format]).header('content-disposition', dispositionHeader(plan.fileName, 'attachment'))
    return reply.send(exportStream(deps, plan))
  }

  app.get('/questions/data', { schema: { querystring: ExportQuery } }, (request, reply) => answer(request, reply, 'questions', 'json', request.query))
  app.get('/questions/data.:resFormat', { schema: { params: FormatParams, querystring: ExportQuery } }, (request, reply) =>
    answer(request, reply, 'questions', request.params.resFormat, request.query))
  app.get('/activity/data.:resFormat', { schema: { params: FormatParams, querystring: ExportQuery } }, (request, reply) =>
    answer(request, reply, 'activity', request.params.resFormat, request.query))
  app.get('/ai-user-requests/data.:resFormat', { schema: { params: FormatParams, querystring: ExportQuery } }, (request, reply) =>
    answer(request, reply, 'ai-user-requests', request.params.resFormat, request.query))
}
