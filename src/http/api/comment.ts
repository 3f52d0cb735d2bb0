// /api/comment/{ruleNodeId}: SPEC §7 comments on a rule node.
import type { FastifyInstance } from 'fastify'
import { addComment, countNodeComments, deleteComment, editComment, getComment, listNodeComments, restoreComment } from '../../services/authoring/comments.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { itemId } from './ids.ts'

const nodeParams = { type: 'object', required: ['ruleNodeId'], properties: { ruleNodeId: { type: 'string', maxLength: 20 } } } as const
const commentParams = { type: 'object', required: ['ruleNodeId', 'id'], properties: { ruleNodeId: { type: 'string', maxLength: 20 }, id: { type: 'string', maxLength: 20 } } } as const
const body = { type: 'object', required: ['body'], additionalProperties: false, properties: { body: { type: 'string' } } } as const

export async function commentApi(app: FastifyInstance) {
  app.addHook('preHandler', requireUser)
  const deps = app.deps
  const nodeId = (request: { params: unknown }) => itemId((request.params as { ruleNodeId: string }).ruleNodeId, 'ruleNodeId')
  const id = (request: { params: unknown }) => itemId((request.params as { id: string }).id)

  app.get('/', { schema: { params: nodeParams } }, async (request) => ({ data: await listNodeComments(deps, actorOf(request), nodeId(request)) }))
  app.post('/', { schema: { params: nodeParams, body } }, async (request, reply) => {
    reply.code(201)
    return { data: await addComment(deps, actorOf(request), nodeId(request), request.body as { body: string }) }
  })
  app.get('/count', { schema: { params: nodeParams } }, async (request) => ({ data: await countNodeComments(deps, actorOf(request), nodeId(request)) }))
  app.get('/:id', { schema: { params: commentParams } }, async (request) => ({ data: await getComment(deps, actorOf(request), nodeId(request), id(request)) }))
  app.patch('/:id', { schema: { params: commentParams, body } }, async (request) => {
    return { data: await editComment(deps, actorOf(request), nodeId(request), id(request), request.body as { body: string }) }
  })
  app.delete('/:id', { schema: { params: commentParams } }, async (request) => {
    await deleteComment(deps, actorOf(request), nodeId(request), id(request))
    return { data: { deleted: true } }
  })
  app.post('/:id/restore', { schema: { params: commentParams } }, async (request) => ({ data: await restoreComment(deps, actorOf(request), nodeId(request), id(request)) }))
}
