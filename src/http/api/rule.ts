// /api/rule: SPEC §7 rule family (the rule's nodes live under rule/{id}/node, see rule-node.ts).
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  copyRule, createRule, debugRun, deleteRule, getRule, promoteRule, recoverRule, ruleCheckIssues, ruleStats, ruleVariables,
  rulesCalledByRule, rulesCallingRule, updateRule,
} from '../../services/authoring/rules.ts'
import { CONTENT_TYPES } from '../../engine/index.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { AnyId, AnyObject, IdParams, IdString, StringEnum } from '../schemas.ts'
import { itemId } from './ids.ts'

const IdQuery = Type.Object({ id: IdString })

export const ruleApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  app.post('/', {
    schema: {
      body: Type.Object({ adviceSetId: AnyId, name: Type.String(), position: Type.Optional(Type.Integer()), onlyWhenCalled: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    },
  }, async (request, reply) => {
    const { adviceSetId, ...fields } = request.body
    reply.code(201)
    return { data: await createRule(deps, actorOf(request), { adviceSetId: itemId(adviceSetId, 'adviceSetId'), ...fields }) }
  })
  app.get('/stats', { schema: { querystring: IdQuery } }, async (request) => ({ data: await ruleStats(deps, actorOf(request), itemId(request.query.id)) }))
  app.get('/called-by', { schema: { querystring: IdQuery } }, async (request) => ({ data: await rulesCallingRule(deps, actorOf(request), itemId(request.query.id)) }))
  app.get('/variables', { schema: { querystring: IdQuery } }, async (request) => ({ data: await ruleVariables(deps, actorOf(request), itemId(request.query.id)) }))
  app.get('/called/:id', { schema: { params: IdParams } }, async (request) => ({ data: await rulesCalledByRule(deps, actorOf(request), itemId(request.params.id)) }))
  app.post('/copy', {
    schema: { body: Type.Object({ id: AnyId, adviceSetId: Type.Optional(AnyId), name: Type.Optional(Type.String()) }, { additionalProperties: false }) },
  }, async (request, reply) => {
    const body = request.body
    reply.code(201)
    return { data: await copyRule(deps, actorOf(request), { id: itemId(body.id), name: body.name, ...(body.adviceSetId === undefined ? {} : { adviceSetId: itemId(body.adviceSetId, 'adviceSetId') }) }) }
  })
  app.post('/promote', {
    schema: { body: Type.Object({ id: AnyId, name: Type.Optional(Type.String()) }, { additionalProperties: false }) },
  }, async (request, reply) => {
    reply.code(201)
    return { data: await promoteRule(deps, actorOf(request), { id: itemId(request.body.id), name: request.body.name }) }
  })
  app.post('/debug', {
    schema: {
      body: Type.Object({
        ruleId: Type.Optional(AnyId),
        adviceSetId: Type.Optional(AnyId),
        inputs: Type.Optional(AnyObject()),
        contentType: Type.Optional(StringEnum(CONTENT_TYPES)),
        now: Type.Optional(Type.String()),
        nearestFor: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 100 })),
      }, { additionalProperties: false }),
    },
  }, async (request) => {
    const body = request.body
    return {
      data: await debugRun(deps, actorOf(request), {
        ...(body.ruleId === undefined ? {} : { ruleId: itemId(body.ruleId, 'ruleId') }),
        ...(body.adviceSetId === undefined ? {} : { adviceSetId: itemId(body.adviceSetId, 'adviceSetId') }),
        inputs: body.inputs ?? {}, ...(body.contentType ? { contentType: body.contentType } : {}), ...(body.now ? { now: body.now } : {}),
        ...(body.nearestFor ? { nearestFor: body.nearestFor } : {}),
      }),
    }
  })

  app.get('/:id', { schema: { params: IdParams } }, async (request) => ({ data: await getRule(deps, actorOf(request), itemId(request.params.id)) }))
  app.get('/:id/checks', { schema: { params: IdParams } }, async (request) => ({ data: await ruleCheckIssues(deps, actorOf(request), itemId(request.params.id)) }))
  app.patch('/:id', {
    schema: {
      params: IdParams,
      body: Type.Object({ name: Type.Optional(Type.String()), position: Type.Optional(Type.Integer()), onlyWhenCalled: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    },
  }, async (request) => ({ data: await updateRule(deps, actorOf(request), itemId(request.params.id), request.body) }))
  app.delete('/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteRule(deps, actorOf(request), itemId(request.params.id))
    return { data: { deleted: true } }
  })
  app.post('/:id/recover', { schema: { params: IdParams } }, async (request) => ({ data: await recoverRule(deps, actorOf(request), itemId(request.params.id)) }))
}
