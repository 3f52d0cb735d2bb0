// /api/advicescenario: SPEC §7 advice scenarios — index, adviceset/{ruleSetId}, recent, {id}, {id}/list-uses, test,
// {id}/copy, {id}/restore. `test` runs one, several or all scenarios of a set against the draft or a version; with
// `background: true` it starts them as a job and answers 202 with it (its progress and cancel: /api/job/{id}).
// Also {id}/fork (the tree builder): the scenario's answers with one question answered otherwise, run on the draft
// (nothing stored), or with `save: true` saved as a new scenario whose expected outcome is that run's.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  copyScenario, createScenario, deleteScenario, getScenario, listScenarioIndex, listScenarioUses, listSetScenarios, recentScenarios,
  restoreScenario, scenarioRunHistory, updateScenario,
} from '../../services/scenarios/scenarios.ts'
import { parseRunSource, runScenarios } from '../../services/scenarios/runs.ts'
import { startRunAllJob } from '../../services/scenarios/run-all-job.ts'
import { forkPanelModel, saveFork } from '../../services/scenarios/tree.ts'
import { ValidationError } from '../../services/errors.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { AnyId, IdParams, IdString, OrNull } from '../schemas.ts'
import { itemId, itemIds } from './ids.ts'

const scenarioFields = {
  name: Type.Optional(Type.String()), description: Type.Optional(Type.String()),
  // Checked by the service, which names the member at fault (inputs.Age, expected.advice …).
  inputs: Type.Optional(Type.Unknown()), runAsOf: Type.Optional(Type.Unknown()), expected: Type.Optional(Type.Unknown()),
  pinnedResponses: Type.Optional(Type.Unknown()),
}
const StatusQuery = { status: Type.Optional(Type.String({ maxLength: 20 })) }
const IndexQuery = Type.Object({
  ...StatusQuery, adviceSetId: Type.Optional(IdString), q: Type.Optional(Type.String({ maxLength: 512 })), page: Type.Optional(Type.Integer({ minimum: 1 })),
  after: Type.Optional(Type.String({ maxLength: 40, description: 'The answer’s `next`: the page after the last scenario shown (instead of `page`).' })),
}, { additionalProperties: false })
const TestBody = Type.Object({
  adviceSetId: AnyId,
  /** One id, or several; left out: every scenario of the set. */
  scenarioIds: Type.Optional(Type.Unknown()),
  source: Type.Optional(Type.Unknown()),
  background: Type.Optional(Type.Boolean()),
}, { additionalProperties: false })

export const adviceScenarioApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  app.get('/index', { schema: { querystring: IndexQuery } }, async (request) => {
    const query = request.query
    return {
      data: await listScenarioIndex(deps, actorOf(request), {
        ...(query.adviceSetId !== undefined ? { adviceSetId: itemId(query.adviceSetId, 'adviceSetId') } : {}),
        ...(query.after !== undefined ? { afterId: itemId(query.after, 'after') } : {}),
        status: query.status, text: query.q, page: query.page,
      }),
    }
  })
  app.get('/adviceset/:ruleSetId', {
    schema: { params: Type.Object({ ruleSetId: IdString }), querystring: Type.Object(StatusQuery, { additionalProperties: false }) },
  }, async (request) => ({ data: await listSetScenarios(deps, actorOf(request), itemId(request.params.ruleSetId, 'ruleSetId'), { status: request.query.status }) }))
  app.get('/recent', async (request) => ({ data: await recentScenarios(deps, actorOf(request)) }))

  app.post('/', { schema: { body: Type.Object({ ...scenarioFields, adviceSetId: AnyId }, { additionalProperties: false }) } }, async (request, reply) => {
    const { adviceSetId, ...fields } = request.body
    reply.code(201)
    return { data: await createScenario(deps, actorOf(request), { ...fields, adviceSetId: itemId(adviceSetId, 'adviceSetId') }) }
  })

  app.post('/test', { schema: { body: TestBody } }, async (request, reply) => {
    const body = request.body
    const run = {
      adviceSetId: itemId(body.adviceSetId, 'adviceSetId'),
      ...(body.scenarioIds !== undefined ? { scenarioIds: itemIds(body.scenarioIds, 'scenarioIds') } : {}),
      source: parseRunSource(body.source),
    }
    if (!body.background) return { data: await runScenarios(deps, actorOf(request), run) }
    reply.code(202)
    return { data: await startRunAllJob(deps, actorOf(request), run) }
  })

  app.get('/:id', { schema: { params: IdParams } }, async (request) => {
    const actor = actorOf(request)
    const id = itemId(request.params.id)
    const scenario = await getScenario(deps, actor, id)
    return { data: { ...scenario, runs: await scenarioRunHistory(deps, actor, id, 20) } }
  })
  app.patch('/:id', { schema: { params: IdParams, body: Type.Object(scenarioFields, { additionalProperties: false }) } }, async (request) => {
    return { data: await updateScenario(deps, actorOf(request), itemId(request.params.id), request.body) }
  })
  app.delete('/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteScenario(deps, actorOf(request), itemId(request.params.id))
    return { data: { deleted: true } }
  })
  app.get('/:id/list-uses', { schema: { params: IdParams } }, async (request) => ({ data: await listScenarioUses(deps, actorOf(request), itemId(request.params.id)) }))
  app.post('/:id/copy', { schema: { params: IdParams, body: OrNull(Type.Object(scenarioFields, { additionalProperties: false })) } }, async (request, reply) => {
    reply.code(201)
    return { data: await copyScenario(deps, actorOf(request), itemId(request.params.id), request.body ?? {}) }
  })
  app.post('/:id/fork', {
    schema: {
      params: IdParams,
      body: Type.Object({
        question: Type.Optional(Type.String({ maxLength: 200 })), value: Type.Optional(Type.String({ maxLength: 100_000 })),
        name: Type.Optional(Type.String({ maxLength: 1000 })), save: Type.Optional(Type.Boolean()),
      }, { additionalProperties: false }),
    },
  }, async (request, reply) => {
    const actor = actorOf(request)
    const scenario = await getScenario(deps, actor, itemId(request.params.id))
    const body = request.body
    const fork = { scenarioId: scenario.id, ...(body.question !== undefined ? { variable: body.question } : {}), ...(body.name !== undefined ? { name: body.name } : {}) }
    if (body.save) {
      if (body.value === undefined) throw new ValidationError('value', 'value: give the answer to fork with.')
      reply.code(201)
      return { data: await saveFork(deps, actor, scenario.adviceSetId, { ...fork, value: body.value }) }
    }
    const { fork: panel } = await forkPanelModel(deps, actor, scenario.adviceSetId, { ...fork, ...(body.value !== undefined ? { value: body.value } : {}) })
    return { data: panel }
  })
  app.post('/:id/restore', { schema: { params: IdParams } }, async (request) => ({ data: await restoreScenario(deps, actorOf(request), itemId(request.params.id)) }))
}
