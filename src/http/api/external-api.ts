// /api/external-api (SPEC §7 external-api family): list, {id}, verify/send, {id}/send, {id}/delete, {id}/list-uses;
// plus create (POST /) and {id}/restore. Secret header values go in, never out: answers carry them masked.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  createExternalApi, deleteExternalApi, externalApiUses, getExternalApi, listExternalApisFor, restoreExternalApi, sendTestRequest,
  updateExternalApiFor,
} from '../../services/integrations/external-apis.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { AnyId, AnyObject, IdParams } from '../schemas.ts'
import { itemId } from './ids.ts'

const Header = Type.Object({ name: Type.String({ maxLength: 200 }), value: Type.Optional(Type.String({ maxLength: 8000 })), secret: Type.Optional(Type.Boolean()) }, { additionalProperties: false })
const Mapping = Type.Object({ path: Type.String({ maxLength: 500 }), variable: Type.String({ maxLength: 200 }), dataType: Type.Optional(Type.String({ maxLength: 20 })) }, { additionalProperties: false })

export const DefinitionBody = Type.Object({
  name: Type.String({ maxLength: 500 }),
  method: Type.Optional(Type.String({ maxLength: 10 })),
  urlTemplate: Type.String({ maxLength: 4000 }),
  headers: Type.Optional(Type.Array(Header, { maxItems: 100 })),
  bodyTemplate: Type.Optional(Type.String({ maxLength: 200_000 })),
  timeoutMs: Type.Optional(Type.Integer()),
  responseMapping: Type.Optional(Type.Array(Mapping, { maxItems: 200 })),
  cacheTtlSeconds: Type.Optional(Type.Integer()),
  sampleResponse: Type.Optional(Type.String({ maxLength: 200_000 })),
}, { additionalProperties: false })

const Inputs = AnyObject()

export const externalApiApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  app.get('/list', async (request) => ({ data: await listExternalApisFor(deps, actorOf(request)) }))
  app.post('/', { schema: { body: DefinitionBody } }, async (request, reply) => {
    reply.code(201)
    return { data: await createExternalApi(deps, actorOf(request), request.body) }
  })
  app.post('/verify/send', {
    schema: { body: Type.Object({ definition: DefinitionBody, inputs: Type.Optional(Inputs), id: Type.Optional(AnyId) }, { additionalProperties: false }) },
  }, async (request) => {
    const { definition, inputs, id } = request.body
    return { data: await sendTestRequest(deps, actorOf(request), { definition, inputs, ...(id === undefined || id === null || id === '' ? {} : { id: itemId(id) }) }) }
  })
  app.get('/:id', { schema: { params: IdParams } }, async (request) => ({ data: await getExternalApi(deps, actorOf(request), itemId(request.params.id)) }))
  app.patch('/:id', { schema: { params: IdParams, body: DefinitionBody } }, async (request) => ({
    data: await updateExternalApiFor(deps, actorOf(request), itemId(request.params.id), request.body),
  }))
  app.post('/:id/send', { schema: { params: IdParams, body: Type.Optional(Type.Object({ inputs: Type.Optional(Inputs) }, { additionalProperties: false })) } }, async (request) => ({
    data: await sendTestRequest(deps, actorOf(request), { id: itemId(request.params.id), inputs: request.body?.inputs }),
  }))
  app.post('/:id/delete', { schema: { params: IdParams } }, async (request) => {
    await deleteExternalApi(deps, actorOf(request), itemId(request.params.id))
    return { data: { deleted: true } }
  })
  app.post('/:id/restore', { schema: { params: IdParams } }, async (request) => ({ data: await restoreExternalApi(deps, actorOf(request), itemId(request.params.id)) }))
  app.get('/:id/list-uses', { schema: { params: IdParams } }, async (request) => ({ data: await externalApiUses(deps, actorOf(request), itemId(request.params.id)) }))
}
