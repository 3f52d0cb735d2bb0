// The tree builder (SPEC §2 advicescenario/tree, page name tree-builder): the set's scenarios as a tree of shared
// answers, and the fork panel. Without JavaScript forking is a form: "Fork…" links open the panel for a scenario
// (?fork=ID, &question= picks the question), posting it with action=preview shows the draft's outcome for the forked
// answers, action=save saves them as a new scenario. With JavaScript the scenario-fork island previews as the answer
// changes (POST /api/advicescenario/{id}/fork) and saves the same way.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ValidationError } from '../../services/errors.ts'
import { saveFork, treeBuilderModel, type ForkRequest } from '../../services/scenarios/tree.ts'
import { itemId } from '../api/ids.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { FormBody, IdString } from '../schemas.ts'

const SetParams = Type.Object({ id: IdString })
const TreeQuery = Type.Object({
  fork: Type.Optional(IdString), question: Type.Optional(Type.String({ maxLength: 200 })), created: Type.Optional(IdString),
})

const STATUS_LABELS = { pass: 'Pass', fail: 'Fail', error: 'Error', notRun: 'Not run' }

const base = (setId: number) => `/adviceset/${setId}/advicescenario`

function text(raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined
  return Array.isArray(raw) ? raw.map(String).join('\n') : String(raw)
}

/** The fork a posted form asks for: `fork`, `question` and the answer as `input.<question>`. */
function forkOfBody(body: Record<string, unknown>): ForkRequest & { value: string } {
  const variable = text(body.question) ?? ''
  return {
    scenarioId: itemId(body.fork, 'fork'), variable, value: text(body[`input.${variable}`]) ?? '', name: text(body.name),
  }
}

async function treePage(request: FastifyRequest, reply: FastifyReply, adviceSetId: number, fork: ForkRequest | undefined, extra: { errors?: Record<string, string>; created?: number } = {}) {
  const actor = actorOf(request)
  let model
  let errors = { ...extra.errors }
  try {
    model = await treeBuilderModel(request.server.deps, actor, adviceSetId, fork)
  } catch (error) {
    // A refused answer still shows the panel, with the answer as typed and the reason beside it.
    if (!(error instanceof ValidationError) || !fork || fork.value === undefined) throw error
    reply.code(400)
    errors = { ...errors, [error.field]: error.message }
    model = await treeBuilderModel(request.server.deps, actor, adviceSetId, { ...fork, value: undefined })
    model.fork!.value = fork.value
  }
  const set = model.form.scope.set
  const fields = Object.keys(errors)
  return reply.page('advicescenario/tree', {
    title: `Tree builder · ${set.nameAlt || set.name}`,
    set, base: base(set.id), statusLabels: STATUS_LABELS, tree: model.tree, canWrite: model.canWrite, fork: model.fork,
    errors, formError: fields.length ? errors[fields[0]!] : undefined, created: extra.created ?? null,
    forkProps: { adviceSetId: set.id, base: base(set.id), fork: model.fork, errors },
    currentAdviceSet: { id: set.id, name: set.name, ownerId: set.ownerId },
  })
}

export const scenarioTreePages: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/adviceset/:id/advicescenario/tree', { preHandler: requireUser, schema: { params: SetParams, querystring: TreeQuery } }, async (request, reply) => {
    const query = request.query
    const fork = query.fork === undefined ? undefined : { scenarioId: itemId(query.fork, 'fork'), ...(query.question ? { variable: query.question } : {}) }
    return treePage(request, reply, itemId(request.params.id), fork, query.created === undefined ? {} : { created: itemId(query.created, 'created') })
  })

  app.post('/adviceset/:id/advicescenario/tree', { preHandler: requireUser, schema: { params: SetParams, body: FormBody } }, async (request, reply) => {
    const id = itemId(request.params.id)
    const body = request.body ?? {}
    const fork = forkOfBody(body)
    if (body.action !== 'save') return treePage(request, reply, id, fork)
    try {
      const saved = await saveFork(app.deps, actorOf(request), id, fork)
      reply.flash({ type: 'info', text: `Scenario “${saved.name}” saved. Its expected outcome is what the draft gives it now.` })
      return reply.redirect(`${base(id)}/tree?created=${saved.id}#scenario-${saved.id}`, 303)
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      reply.code(400)
      return treePage(request, reply, id, fork, { errors: { [error.field]: error.message } })
    }
  })
}
