// /api/rule: SPEC §7 rule family (the rule's nodes live under rule/{id}/node, see rule-node.ts).
import type { FastifyInstance } from 'fastify'
import {
  copyRule, createRule, debugRun, deleteRule, getRule, promoteRule, recoverRule, ruleStats, ruleVariables,
  rulesCalledByRule, rulesCallingRule, updateRule,
} from '../../services/authoring/rules.ts'
import { CONTENT_TYPES, type ContentType } from '../../engine/index.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { idParamSchema, itemId } from './ids.ts'

const idQuery = { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 20 } } } as const

export async function ruleApi(app: FastifyInstance) {
  app.addHook('preHandler', requireUser)
  const deps = app.deps
  const queryId = (request: { query: unknown }) => itemId((request.query as { id: string }).id)
  const paramId = (request: { params: unknown }) => itemId((request.params as { id: string }).id)

  app.post('/', {
    schema: { body: { type: 'object', required: ['adviceSetId', 'name'], additionalProperties: false, properties: { adviceSetId: {}, name: { type: 'string' }, position: { type: 'integer' } } } },
  }, async (request, reply) => {
    const body = request.body as { adviceSetId: unknown; name: string; position?: number }
    reply.code(201)
    return { data: await createRule(deps, actorOf(request), { adviceSetId: itemId(body.adviceSetId, 'adviceSetId'), name: body.name, position: body.position }) }
  })
  app.get('/stats', { schema: { querystring: idQuery } }, async (request) => ({ data: await ruleStats(deps, actorOf(request), queryId(request)) }))
  app.get('/called-by', { schema: { querystring: idQuery } }, async (request) => ({ data: await rulesCallingRule(deps, actorOf(request), queryId(request)) }))
  app.get('/variables', { schema: { querystring: idQuery } }, async (request) => ({ data: await ruleVariables(deps, actorOf(request), queryId(request)) }))
  app.get('/called/:id', { schema: { params: idParamSchema } }, async (request) => ({ data: await rulesCalledByRule(deps, actorOf(request), paramId(request)) }))
  app.post('/copy', {
    schema: { body: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: {}, adviceSetId: {}, name: { type: 'string' } } } },
  }, async (request, reply) => {
    const body = request.body as { id: unknown; adviceSetId?: unknown; name?: string }
    reply.code(201)
    return { data: await copyRule(deps, actorOf(request), { id: itemId(body.id), name: body.name, ...(body.adviceSetId === undefined ? {} : { adviceSetId: itemId(body.adviceSetId, 'adviceSetId') }) }) }
  })
  app.post('/promote', {
    schema: { body: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: {}, name: { type: 'string' } } } },
  }, async (request, reply) => {
    const body = request.body as { id: unknown; name?: string }
    reply.code(201)
    return { data: await promoteRule(deps, actorOf(request), { id: itemId(body.id), name: body.name }) }
  })
  app.post('/debug', {
    schema: {
      body: {
        type: 'object', additionalProperties: false,
        properties: { ruleId: {}, adviceSetId: {}, inputs: { type: 'object' }, contentType: { type: 'string', enum: [...CONTENT_TYPES] }, now: { type: 'string' } },
      },
    },
  }, async (request) => {
    const body = request.body as { ruleId?: unknown; adviceSetId?: unknown; inputs?: Record<string, unknown>; contentType?: ContentType; now?: string }
    return {
      data: await debugRun(deps, actorOf(request), {
        ...(body.ruleId === undefined ? {} : { ruleId: itemId(body.ruleId, 'ruleId') }),
        ...(body.adviceSetId === undefined ? {} : { adviceSetId: itemId(body.adviceSetId, 'adviceSetId') }),
        inputs: body.inputs ?? {}, ...(body.contentType ? { contentType: body.contentType } : {}), ...(body.now ? { now: body.now } : {}),
      }),
    }
  })

  app.get('/:id', { schema: { params: idParamSchema } }, async (request) => ({ data: await getRule(deps, actorOf(request), paramId(request)) }))
  app.patch('/:id', {
    schema: { params: idParamSchema, body: { type: 'object', additionalProperties: false, properties: { name: { type: 'string' }, position: { type: 'integer' } } } },
  }, async (request) => ({ data: await updateRule(deps, actorOf(request), paramId(request), request.body as { name?: string; position?: number }) }))
  app.delete('/:id', { schema: { params: idParamSchema } }, async (request) => {
    await deleteRule(deps, actorOf(request), paramId(request))
    return { data: { deleted: true } }
  })
  app.post('/:id/recover', { schema: { params: idParamSchema } }, async (request) => ({ data: await recoverRule(deps, actorOf(request), paramId(request)) }))
}
