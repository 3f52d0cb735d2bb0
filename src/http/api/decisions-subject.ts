// /api/decisions/subject (issue 26): a data subject's decision records — find (access), export (a JSON download) and
// erase — by a personal variable and the value it held. Session only; the owner's admins, or a provider admin naming
// any owner. POST, so the value looked for stays out of addresses and access logs.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { eraseSubjectDecisions, exportSubjectDecisions, findSubjectDecisions } from '../../services/decisions/subject-rights.ts'
import { dispositionHeader } from '../header-values.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'

const SubjectBody = Type.Object({
  ownerId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  variable: Type.String({ maxLength: 100 }),
  value: Type.String({ maxLength: 1_000 }),
}, { additionalProperties: false })

export const decisionSubjectApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  app.post('/find', { schema: { body: SubjectBody } }, async (request) => ({ data: await findSubjectDecisions(deps, actorOf(request), request.body) }))
  app.post('/export', { schema: { body: SubjectBody } }, async (request, reply) => {
    const { fileName, document } = await exportSubjectDecisions(deps, actorOf(request), request.body)
    reply.type('application/json; charset=utf-8').header('content-disposition', dispositionHeader(fileName, 'attachment')).header('cache-control', 'no-store')
    return document
  })
  app.post('/erase', { schema: { body: SubjectBody } }, async (request) => ({ data: await eraseSubjectDecisions(deps, actorOf(request), request.body) }))
}
