// /api/job (SPEC §7 `job`, `job/{id}/cancel`): the signed-in user's jobs, one job, cancel, and the file a finished
// job made (an export's download).
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { cancelJob, getJob, jobDownload, listMyJobs } from '../../services/operations/jobs.ts'
import { dispositionHeader } from '../header-values.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { IdParams, StringEnum } from '../schemas.ts'
import { itemId } from './ids.ts'

const JobListQuery = Type.Object({
  /** Only the jobs about this thing (e.g. `adviceset:12`). */
  subject: Type.Optional(Type.String({ maxLength: 100 })),
  /** `active`: queued or running only. */
  state: Type.Optional(StringEnum(['active'])),
  /** `all`: admins also see their team's jobs (provider admins: everyone's). */
  scope: Type.Optional(StringEnum(['mine', 'all'])),
}, { additionalProperties: false })

export const jobApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  app.get('/', { schema: { querystring: JobListQuery } }, async (request) => {
    const q = request.query
    return { data: await listMyJobs(deps, actorOf(request), { subject: q.subject, active: q.state === 'active', all: q.scope === 'all' }) }
  })

  app.get('/:id', { schema: { params: IdParams } }, async (request) => ({ data: await getJob(deps, actorOf(request), itemId(request.params.id)) }))

  app.post('/:id/cancel', { schema: { params: IdParams } }, async (request) => ({ data: await cancelJob(deps, actorOf(request), itemId(request.params.id)) }))

  app.get('/:id/download', { schema: { params: IdParams } }, async (request, reply) => {
    const file = await jobDownload(deps, actorOf(request), itemId(request.params.id))
    reply.type(file.contentType).header('content-length', String(file.size)).header('content-disposition', dispositionHeader(file.name, 'attachment'))
    return reply.send(file.stream)
  })
}
