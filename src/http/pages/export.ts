// The export page (page `admin-export`, admins): what can be exported for which owner, with direct downloads for
// small exports and a job (shown in the jobs panel, with its download when done) for large ones.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { listOwnersForAdmin } from '../../services/accounts/users.ts'
import { isProviderAdmin } from '../../services/context.ts'
import { EXPORT_FORMATS, EXPORT_INLINE_LIMIT, EXPORT_JOB_SUBJECT, EXPORT_KINDS, EXPORT_TITLES, planExport, startExportJob } from '../../services/operations/export.ts'
import { jobsPanel } from '../../services/operations/jobs.ts'
import { requireOneOf } from '../../services/validate.ts'
import { redirectWithin } from '../header-values.ts'
import { actorOf, requireRole } from '../plugins/auth.ts'
import { FormBody } from '../schemas.ts'

const ExportPageQuery = Type.Object({ ownerId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) })

export const exportPages: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps

  app.get('/admin/export', { preHandler: requireRole('admin'), schema: { querystring: ExportPageQuery } }, async (request, reply) => {
    const actor = actorOf(request)
    const ownerId = request.query.ownerId
    const exports = await Promise.all(EXPORT_KINDS.map((kind) => planExport(deps, actor, kind, 'csv', ownerId, { upToInlineLimit: true })))
    const q = exports[0]!.ownerId === actor.ownerId ? '' : `?ownerId=${encodeURIComponent(exports[0]!.ownerId)}`
    return reply.page('admin/export', {
      title: 'Export', exports, titles: EXPORT_TITLES, formats: EXPORT_FORMATS, inlineLimit: EXPORT_INLINE_LIMIT, ownerQuery: q,
      owners: isProviderAdmin(actor) ? await listOwnersForAdmin(deps, actor) : null,
      jobsPanel: await jobsPanel(deps, actor, EXPORT_JOB_SUBJECT),
    })
  })

  app.post('/admin/export', { preHandler: requireRole('admin'), schema: { body: FormBody } }, async (request, reply) => {
    const actor = actorOf(request)
    const body = request.body ?? {}
    const kind = requireOneOf('kind', body.kind, EXPORT_KINDS, 'Export')
    const format = requireOneOf('format', body.format, EXPORT_FORMATS, 'Format')
    const plan = await planExport(deps, actor, kind, format, typeof body.ownerId === 'string' && body.ownerId ? body.ownerId : undefined)
    await startExportJob(deps, actor, plan)
    reply.flash({ type: 'info', text: 'Preparing the export. Its download appears below when it is ready.' })
    return redirectWithin(reply, `/admin/export${plan.ownerId === actor.ownerId ? '' : `?ownerId=${encodeURIComponent(plan.ownerId)}`}`, '/admin/export', { code: 303 })
  })
}
