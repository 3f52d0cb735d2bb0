// POST /api/admin/apikey/create (SPEC §7 admin): a new API key; the answer is the only one that holds its secret.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { createApiKeyFor } from '../../services/delivery/api-key-admin.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { OrNull } from '../schemas.ts'

const CreateBody = Type.Object({
  name: Type.String(),
  environment: Type.Optional(Type.String()),
  ownerId: Type.Optional(Type.String()),
  audienceId: Type.Optional(OrNull(Type.Integer())),
  allowedAdviceSetIds: Type.Optional(Type.Array(Type.Integer(), { maxItems: 1000 })),
  allowedOrigins: Type.Optional(Type.Array(Type.String(), { maxItems: 100 })),
  rateLimit: Type.Optional(Type.Integer()),
  adviceRequests: Type.Optional(Type.Boolean()),
}, { additionalProperties: false })

export const adminApiKeyApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)

  app.post('/create', { schema: { body: CreateBody } }, async (request, reply) => {
    const { key, secret } = await createApiKeyFor(app.deps, actorOf(request), request.body)
    reply.code(201).header('cache-control', 'no-store')
    return { data: { ...key, secret } }
  })
}
