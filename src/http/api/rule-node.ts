// /api/rule/{id}/node: SPEC §7 rule node family. {which} is `roots` or `tree`; a numeric segment is a node id.
import type { FastifyInstance } from 'fastify'
import {
  copyNode, createCallNode, createNode, deleteNode, getNode, listNodesWhich, moveNode, recoverNode, updateNodeContent,
  type NodeInput,
} from '../../services/authoring/rule-nodes.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { itemId } from './ids.ts'

const content = {
  type: { type: 'string' }, expression: { type: ['string', 'null'] }, variable: { type: ['string', 'null'] },
  headline: { type: ['string', 'null'] }, text: { type: ['string', 'null'] }, question: { type: ['string', 'null'] },
  calledRuleId: {}, apiId: { type: ['string', 'null'] }, tags: { type: 'array', maxItems: 20 }, sources: { type: 'array', maxItems: 50 },
} as const
const placement = { parentId: {}, position: { type: 'integer' } } as const
const ruleParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 20 } } } as const
const nodeParams = { type: 'object', required: ['id', 'nodeId'], properties: { id: { type: 'string', maxLength: 20 }, nodeId: { type: 'string', maxLength: 20 } } } as const

export async function ruleNodeApi(app: FastifyInstance) {
  app.addHook('preHandler', requireUser)
  const deps = app.deps
  const ruleId = (request: { params: unknown }) => itemId((request.params as { id: string }).id)
  const nodeId = (request: { params: unknown }) => itemId((request.params as { nodeId: string }).nodeId, 'nodeId')

  app.post('/', { schema: { params: ruleParams, body: { type: 'object', required: ['type'], additionalProperties: false, properties: { ...content, ...placement } } } }, async (request, reply) => {
    reply.code(201)
    return { data: await createNode(deps, actorOf(request), ruleId(request), request.body as NodeInput) }
  })
  app.post('/new-call', { schema: { params: ruleParams, body: { type: 'object', required: ['calledRuleId'], additionalProperties: false, properties: { calledRuleId: {}, ...placement } } } }, async (request, reply) => {
    reply.code(201)
    return { data: await createCallNode(deps, actorOf(request), ruleId(request), request.body as { calledRuleId: unknown }) }
  })
  app.post('/move', { schema: { params: ruleParams, body: { type: 'object', required: ['nodeId'], additionalProperties: false, properties: { nodeId: {}, ...placement } } } }, async (request) => {
    return { data: await moveNode(deps, actorOf(request), ruleId(request), request.body as { nodeId: unknown }) }
  })
  app.get('/:nodeId', { schema: { params: nodeParams } }, async (request) => {
    const which = (request.params as { nodeId: string }).nodeId
    if (which === 'roots' || which === 'tree') return { data: await listNodesWhich(deps, actorOf(request), ruleId(request), which) }
    return { data: await getNode(deps, actorOf(request), ruleId(request), nodeId(request)) }
  })
  app.patch('/:nodeId', { schema: { params: nodeParams, body: { type: 'object', additionalProperties: false, properties: content } } }, async (request) => {
    return { data: await updateNodeContent(deps, actorOf(request), ruleId(request), nodeId(request), request.body as NodeInput) }
  })
  app.delete('/:nodeId', { schema: { params: nodeParams } }, async (request) => {
    return { data: await deleteNode(deps, actorOf(request), ruleId(request), nodeId(request)) }
  })
  app.post('/:nodeId/copy', { schema: { params: nodeParams, body: { type: ['object', 'null'], additionalProperties: false, properties: placement } } }, async (request, reply) => {
    reply.code(201)
    return { data: await copyNode(deps, actorOf(request), ruleId(request), nodeId(request), (request.body ?? {}) as { parentId?: unknown }) }
  })
  app.post('/:nodeId/recover', { schema: { params: nodeParams } }, async (request) => {
    return { data: await recoverNode(deps, actorOf(request), ruleId(request), nodeId(request)) }
  })
}
