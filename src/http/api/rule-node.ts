// /api/rule/{id}/node: SPEC §7 rule node family. {which} is `roots` or `tree`; a numeric segment is a node id.
import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox'
import {
  copyNode, createCallNode, createNode, deleteNode, getNode, listNodesWhich, moveNode, recoverNode, updateNodeContent,
} from '../../services/authoring/rule-nodes.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { AnyId, IdParams, IdString, OrNull } from '../schemas.ts'
import { itemId } from './ids.ts'

const content = {
  type: Type.Optional(Type.String()), expression: Type.Optional(OrNull(Type.String())), variable: Type.Optional(OrNull(Type.String())),
  headline: Type.Optional(OrNull(Type.String())), text: Type.Optional(OrNull(Type.String())), question: Type.Optional(OrNull(Type.String())),
  calledRuleId: Type.Optional(AnyId), apiId: Type.Optional(OrNull(Type.String())),
  tags: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 20 })), sources: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 50 })),
}
const placement = { parentId: Type.Optional(AnyId), position: Type.Optional(Type.Integer()) }
const NodeParams = Type.Object({ id: IdString, nodeId: IdString })

export const ruleNodeApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps
  const nodeId = (params: Static<typeof NodeParams>) => itemId(params.nodeId, 'nodeId')

  app.post('/', {
    schema: { params: IdParams, body: Type.Object({ ...content, type: Type.String(), ...placement }, { additionalProperties: false }) },
  }, async (request, reply) => {
    reply.code(201)
    return { data: await createNode(deps, actorOf(request), itemId(request.params.id), request.body) }
  })
  app.post('/new-call', {
    schema: {
      params: IdParams,
      body: Type.Object({ calledRuleId: Type.Optional(AnyId), newRuleName: Type.Optional(Type.String()), ...placement }, { additionalProperties: false }),
    },
  }, async (request, reply) => {
    reply.code(201)
    return { data: await createCallNode(deps, actorOf(request), itemId(request.params.id), request.body) }
  })
  app.post('/move', {
    schema: { params: IdParams, body: Type.Object({ nodeId: AnyId, ...placement }, { additionalProperties: false }) },
  }, async (request) => {
    return { data: await moveNode(deps, actorOf(request), itemId(request.params.id), request.body) }
  })
  app.get('/:nodeId', { schema: { params: NodeParams } }, async (request) => {
    const which = request.params.nodeId
    if (which === 'roots' || which === 'tree') return { data: await listNodesWhich(deps, actorOf(request), itemId(request.params.id), which) }
    return { data: await getNode(deps, actorOf(request), itemId(request.params.id), nodeId(request.params)) }
  })
  app.patch('/:nodeId', { schema: { params: NodeParams, body: Type.Object(content, { additionalProperties: false }) } }, async (request) => {
    return { data: await updateNodeContent(deps, actorOf(request), itemId(request.params.id), nodeId(request.params), request.body) }
  })
  app.delete('/:nodeId', { schema: { params: NodeParams } }, async (request) => {
    return { data: await deleteNode(deps, actorOf(request), itemId(request.params.id), nodeId(request.params)) }
  })
  app.post('/:nodeId/copy', {
    schema: { params: NodeParams, body: OrNull(Type.Object(placement, { additionalProperties: false })) },
  }, async (request, reply) => {
    reply.code(201)
    return { data: await copyNode(deps, actorOf(request), itemId(request.params.id), nodeId(request.params), request.body ?? {}) }
  })
  app.post('/:nodeId/recover', { schema: { params: NodeParams } }, async (request) => {
    return { data: await recoverNode(deps, actorOf(request), itemId(request.params.id), nodeId(request.params)) }
  })
}
