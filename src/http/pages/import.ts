// /adviceset/import (page name `import`, issue 28): an advice-set file or a decision table brought in through the
// set-import island, which checks it first (the dry run) and then imports it.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { importPageData } from '../../services/library/portable-upload.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'

const ImportPageQuery = Type.Object({ into: Type.Optional(Type.String({ maxLength: 20 })) })

export const importPages: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/adviceset/import', { preHandler: requireUser, schema: { querystring: ImportPageQuery } }, async (request, reply) => {
    const into = request.query.into && /^\d{1,9}$/.test(request.query.into) ? Number(request.query.into) : undefined
    return reply.page('adviceset/import', { title: 'Import', island: await importPageData(app.deps, actorOf(request), into) })
  })
}
