// /api/adviceset testing tools (SPEC §7 adviceset family): generate-branches (and its compare), generate-summary, and
// the background tasks large generations run as. Rights and input checks are the services' (services/scenarios).
import type { FastifyReply } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Actor } from '../../services/context.ts'
import { generateSetBranches } from '../../services/scenarios/branches.ts'
import { compareSources } from '../../services/scenarios/branch-compare.ts'
import { setSummary } from '../../services/scenarios/set-summary.ts'
import { branchTaskResult, branchTaskStatus, cancelBranchTask } from '../../services/scenarios/task-access.ts'
import { dispositionHeader } from '../header-values.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { AnyId, AnyObject, IdString, StringEnum } from '../schemas.ts'
import { itemId } from './ids.ts'

const Source = Type.String({ maxLength: 40 })
const Knobs = {
  limit: Type.Optional(Type.Union([Type.Integer(), Type.String({ maxLength: 12 })])),
  runAsOf: Type.Optional(Type.String({ maxLength: 10 })),
  background: Type.Optional(Type.Boolean()),
}
const GenerateBody = Type.Object({
  adviceSetId: AnyId,
  source: Type.Optional(Source),
  /** Starting answers: an object, or its JSON text. */
  inputs: Type.Optional(Type.Union([AnyObject(), Type.String({ maxLength: 100_000 })])),
  ...Knobs,
}, { additionalProperties: false })
const CompareBody = Type.Object({ adviceSetId: AnyId, base: Type.Optional(Source), next: Type.Optional(Source), ...Knobs }, { additionalProperties: false })
const TaskParams = Type.Object({ taskId: Type.String({ maxLength: 40 }) })
const SummaryFields = { adviceSetId: AnyId, source: Type.Optional(Source), format: Type.Optional(StringEnum(['json', 'markdown'] as const)) }

export const adviceSetTestingApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  app.post('/generate-branches', { schema: { body: GenerateBody } }, async (request, reply) => {
    const { adviceSetId, ...rest } = request.body
    const outcome = await generateSetBranches(deps, actorOf(request), { ...rest, adviceSetId: itemId(adviceSetId, 'adviceSetId') })
    if (outcome.task) reply.code(202)
    return { data: outcome.task ? { task: outcome.task } : outcome.view }
  })
  app.post('/generate-branches/compare', { schema: { body: CompareBody } }, async (request, reply) => {
    const { adviceSetId, ...rest } = request.body
    const outcome = await compareSources(deps, actorOf(request), { ...rest, adviceSetId: itemId(adviceSetId, 'adviceSetId') })
    if (outcome.task) reply.code(202)
    return { data: outcome.task ? { task: outcome.task } : outcome.view }
  })
  app.get('/generate-branches/tasks/:taskId', { schema: { params: TaskParams } }, async (request) => ({ data: await branchTaskStatus(deps, actorOf(request), request.params.taskId) }))
  app.get('/generate-branches/tasks/:taskId/result', { schema: { params: TaskParams } }, async (request) => ({ data: await branchTaskResult(deps, actorOf(request), request.params.taskId) }))
  app.post('/generate-branches/tasks/:taskId/cancel', { schema: { params: TaskParams } }, async (request) => ({ data: await cancelBranchTask(deps, actorOf(request), request.params.taskId) }))

  /** JSON (markdown and html), or with format=markdown the markdown itself as a file to download. */
  const summary = async (actor: Actor, fields: { adviceSetId: unknown; source?: string | undefined; format?: 'json' | 'markdown' | undefined }, reply: FastifyReply) => {
    const result = await setSummary(deps, actor, { adviceSetId: itemId(fields.adviceSetId, 'adviceSetId'), source: fields.source })
    if (fields.format !== 'markdown') return { data: result }
    reply.header('content-disposition', dispositionHeader(result.filename, 'attachment'))
    reply.type('text/markdown; charset=utf-8')
    return result.markdown
  }
  app.get('/generate-summary', { schema: { querystring: Type.Object({ ...SummaryFields, adviceSetId: IdString }, { additionalProperties: false }) } }, async (request, reply) =>
    summary(actorOf(request), request.query, reply))
  app.post('/generate-summary', { schema: { body: Type.Object(SummaryFields, { additionalProperties: false }) } }, async (request, reply) =>
    summary(actorOf(request), request.body, reply))
}
