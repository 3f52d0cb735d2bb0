// POST /api/admin/apikey/create (SPEC §7 admin): a new API key; the answer is the only one that holds its secret.
// POST /api/admin/apikey/{keyId}/rotate (ours): a new secret for the same key, the old one valid for a grace period.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { createApiKeyFor, rotateApiKeyFor } from '../../services/delivery/api-key-admin.ts'
import { itemId } from './ids.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { IdString, OrNull } from '../schemas.ts'

const CreateBody = Type.Object({
  name: Type.String(),
  environment: Type.Optional(Type.String()),
  ownerId: Type.Optional(Type.String()),
  audienceId: Type.Optional(OrNull(Type.Integer())),
  allowedAdviceSetIds: Type.Optional(Type.Array(Type.Integer(), { maxItems: 1000 })),
  allowedOrigins: Type.Optional(Type.Array(Type.String(), { maxItems: 100 })),
  rateLimit: Type.Optional(Type.Integer()),
  adviceRequests: Type.Optional(Type.Boolean()),
  /** Requests with this key may ask for explanations (explain=true). Default: preview keys yes, production keys no. */
  explain: Type.Optional(Type.Boolean()),
}, { additionalProperties: false })

const RotateParams = Type.Object({ keyId: IdString })
const RotateBody = Type.Object({
  /** Hours the old secret keeps working (0–24; 0: it stops at once). Checked in the service, which names the field. */
  graceHours: Type.Union([Type.Integer(), Type.String({ maxLength: 10 })]),
}, { additionalProperties: false })

export const adminApiKeyApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)

  app.post('/create', { schema: { body: CreateBody } }, async (request, reply) => {
    const { key, secret } = await createApiKeyFor(app.deps, actorOf(request), request.body)
    reply.code(201).header('cache-control', 'no-store')
    return { data: { ...key, secret } }
  })

  app.post('/:keyId/rotate', { schema: { params: RotateParams, body: RotateBody } }, async (request, reply) => {
    const { key, secret } = await rotateApiKeyFor(app.deps, actorOf(request), itemId(request.params.keyId, 'keyId'), request.body)
    reply.header('cache-control', 'no-store')
    return { data: { ...key, secret } }
  })
}
