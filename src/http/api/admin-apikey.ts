// POST /api/admin/apikey/create (SPEC §7 admin): a new API key; the answer is the only one that holds its secret.
import type { FastifyInstance } from 'fastify'
import { createApiKeyFor, type ApiKeyInput } from '../../services/delivery/api-key-admin.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'

const createBody = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    environment: { type: 'string' },
    ownerId: { type: 'string' },
    audienceId: { type: ['integer', 'null'] },
    allowedAdviceSetIds: { type: 'array', items: { type: 'integer' }, maxItems: 1000 },
    allowedOrigins: { type: 'array', items: { type: 'string' }, maxItems: 100 },
    rateLimit: { type: 'integer' },
  },
} as const

export async function adminApiKeyApi(app: FastifyInstance) {
  app.addHook('preHandler', requireUser)

  app.post('/create', { schema: { body: createBody } }, async (request, reply) => {
    const { key, secret } = await createApiKeyFor(app.deps, actorOf(request), request.body as ApiKeyInput)
    reply.code(201).header('cache-control', 'no-store')
    return { data: { ...key, secret } }
  })
}
