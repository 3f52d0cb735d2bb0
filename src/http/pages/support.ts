// Support pages (page `support`, provider admins): /admin/support finds any user or advice set, rebuilds the search
// index as a job (with the jobs panel) and deletes a search-index object; /admin/support/impersonate confirms and
// starts an impersonation; …/impersonate/stop returns the session to the admin.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { jobsPanel } from '../../services/operations/jobs.ts'
import { findForSupport, impersonationTarget, startImpersonation, stopImpersonation } from '../../services/operations/support.ts'
import { deleteSearchObject, startReindex, SUPPORT_JOB_SUBJECT } from '../../services/search.ts'
import { NotFoundError, ValidationError } from '../../services/errors.ts'
import { itemId } from '../api/ids.ts'
import { actorOf, requireProviderAdmin, requireUser } from '../plugins/auth.ts'
import { FormBody, IdString } from '../schemas.ts'

const SupportQuery = Type.Object({ q: Type.Optional(Type.String({ maxLength: 200 })) })
const ImpersonateQuery = Type.Object({ userId: IdString })

export const supportPages: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps

  app.get('/admin/support', { preHandler: requireProviderAdmin, schema: { querystring: SupportQuery } }, async (request, reply) => {
    const actor = actorOf(request)
    const q = request.query.q ?? ''
    return reply.page('admin/support', {
      title: 'Support', q, found: q.trim() ? await findForSupport(deps, actor, q) : null,
      jobsPanel: await jobsPanel(deps, actor, SUPPORT_JOB_SUBJECT),
    })
  })

  app.post('/admin/support/reindex', { preHandler: requireProviderAdmin }, async (request, reply) => {
    await startReindex(deps, actorOf(request))
    reply.flash({ type: 'info', text: 'Rebuilding the search index. Its progress is shown below.' })
    return reply.redirect('/admin/support', 303)
  })

  app.post('/admin/support/object', { preHandler: requireProviderAdmin, schema: { body: FormBody } }, async (request, reply) => {
    const objectID = typeof request.body?.objectID === 'string' ? request.body.objectID.trim() : ''
    if (!objectID || objectID.length > 200) throw new ValidationError('objectID', 'Object ID is required (at most 200 characters).')
    try {
      await deleteSearchObject(deps, actorOf(request), objectID)
      reply.flash({ type: 'info', text: `Removed “${objectID}” from the search index.` })
    } catch (error) {
      // An ID the index does not hold: said as such, not as a removal.
      if (!(error instanceof NotFoundError)) throw error
      reply.flash({ type: 'warning', text: error.message })
    }
    return reply.redirect('/admin/support', 303)
  })

  app.get('/admin/support/impersonate', { preHandler: requireProviderAdmin, schema: { querystring: ImpersonateQuery } }, async (request, reply) => {
    const target = await impersonationTarget(deps, actorOf(request), itemId(request.query.userId, 'userId'))
    return reply.page('admin/impersonate', { title: `Impersonate ${target.name}`, target })
  })

  app.post('/admin/support/impersonate', { preHandler: requireProviderAdmin, schema: { body: FormBody } }, async (request, reply) => {
    const admin = actorOf(request)
    const target = await startImpersonation(deps, admin, itemId(request.body?.userId, 'userId'))
    request.session.impersonatorId = admin.userId
    request.session.userId = target.id
    reply.flash({ type: 'warning', text: `You are now impersonating ${target.name}.` })
    return reply.redirect('/', 303)
  })

  app.post('/admin/support/impersonate/stop', { preHandler: requireUser }, async (request, reply) => {
    const actor = actorOf(request)
    const adminId = await stopImpersonation(deps, actor)
    request.session.userId = adminId
    delete request.session.impersonatorId
    reply.flash({ type: 'info', text: 'You stopped impersonating; you are yourself again.' })
    return reply.redirect('/admin/support', 303)
  })
}
