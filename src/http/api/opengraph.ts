// /api/opengraph (SPEC §7): a link's preview for signed-in users (the link-supplement form uses it).
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { linkPreview } from '../../services/integrations/opengraph.ts'
import { requireUser } from '../plugins/auth.ts'

const PreviewQuery = Type.Object({ url: Type.String({ maxLength: 2048 }) })

export const opengraphApi: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/', { preHandler: requireUser, schema: { querystring: PreviewQuery } }, async (request) => ({
    data: await linkPreview(app.deps, request.query.url),
  }))
}
