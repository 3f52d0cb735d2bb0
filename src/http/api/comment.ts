// /api/comment/{ruleNodeId}: SPEC §7 comments on a rule node.
import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox'
import { addComment, countNodeComments, deleteComment, editComment, getComment, listNodeComments, restoreComment } from '../../services/authoring/comments.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { IdString } from '../schemas.ts'
import { itemId } from './ids.ts'

const NodeParams = Type.Object({ ruleNodeId: IdString })
const CommentParams = Type.Object({ ruleNodeId: IdString, id: IdString })
const CommentBody = Type.Object({ body: Type.String() }, { additionalProperties: false })

export const commentApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps
  const nodeId = (params: Static<typeof NodeParams>) => itemId(params.ruleNodeId, 'ruleNodeId')

  app.get('/', { schema: { params: NodeParams } }, async (request) => ({ data: await listNodeComments(deps, actorOf(request), nodeId(request.params)) }))
  app.post('/', { schema: { params: NodeParams, body: CommentBody } }, async (request, reply) => {
    reply.code(201)
    return { data: await addComment(deps, actorOf(request), nodeId(request.params), request.body) }
  })
  app.get('/count', { schema: { params: NodeParams } }, async (request) => ({ data: await countNodeComments(deps, actorOf(request), nodeId(request.params)) }))
  app.get('/:id', { schema: { params: CommentParams } }, async (request) => {
    return { data: await getComment(deps, actorOf(request), nodeId(request.params), itemId(request.params.id)) }
  })
  app.patch('/:id', { schema: { params: CommentParams, body: CommentBody } }, async (request) => {
    return { data: await editComment(deps, actorOf(request), nodeId(request.params), itemId(request.params.id), request.body) }
  })
  app.delete('/:id', { schema: { params: CommentParams } }, async (request) => {
    await deleteComment(deps, actorOf(request), nodeId(request.params), itemId(request.params.id))
    return { data: { deleted: true } }
  })
  app.post('/:id/restore', { schema: { params: CommentParams } }, async (request) => {
    return { data: await restoreComment(deps, actorOf(request), nodeId(request.params), itemId(request.params.id)) }
  })
}
