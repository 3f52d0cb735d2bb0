// Advice scenario pages (SPEC §2 Advice scenario row; page name advice-scenario-index): the set's scenarios with
// their status and "Run all", new / edit / copy (one form, with "Fill expected from a run"), show (expected against
// actual, the trace, the runs) and delete (a confirm page; restore from the list's note or the activity log). Every
// action is a plain form, so the pages work without JavaScript. "Run all" starts a job: the list's jobs panel shows
// its progress, and the scenario-run-all island starts it without leaving the page and reloads the list at the end.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox'
import type { Actor } from '../../services/context.ts'
import { DeleteNotAllowedError, NotFoundError, ValidationError } from '../../services/errors.ts'
import { assertCanChange } from '../../services/accounts/visibility.ts'
import { formErrors } from './forms.ts'
import {
  fieldsFor, formValuesFromBody, formValuesOf, pinnedFormValue, scenarioFormModel, scenarioInputOf, textOfValue, type ScenarioFormModel, type ScenarioFormValues,
} from '../../services/scenarios/form.ts'
import { FOCUS_COMPLETE } from '../../services/scenarios/outcome.ts'
import { parsePinnedResponses } from '../../services/scenarios/fields.ts'
import { recordLiveResponse } from '../../services/scenarios/pinned.ts'
import { scenarioIndexModel, scenarioShowModel } from '../../services/scenarios/pages.ts'
import { parseRunSource, previewRun, runScenarios } from '../../services/scenarios/runs.ts'
import { scenarioJobSubject, startRunAllJob } from '../../services/scenarios/run-all-job.ts'
import { jobsPanel } from '../../services/operations/jobs.ts'
import {
  copyScenario, createScenario, deleteScenario, deletedScenarioOf, getScenario, listScenarioUses, restoreScenario, updateScenario, type ScenarioItem,
} from '../../services/scenarios/scenarios.ts'
import { itemId } from '../api/ids.ts'
import { dateFormatter } from '../format.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { FormBody, IdString } from '../schemas.ts'

const SetParams = Type.Object({ id: IdString })
const ScenarioParams = Type.Object({ id: IdString, scenarioId: IdString })
const IndexQuery = Type.Object({ failing: Type.Optional(Type.String({ maxLength: 5 })), deleted: Type.Optional(IdString) })
const NewQuery = Type.Object({
  inputs: Type.Optional(Type.String({ maxLength: 100_000 })), name: Type.Optional(Type.String({ maxLength: 200 })), runAsOf: Type.Optional(Type.String({ maxLength: 40 })),
})
const ShowQuery = Type.Object({ run: Type.Optional(IdString) })

const STATUS_LABELS = { pass: 'Pass', fail: 'Fail', error: 'Error', notRun: 'Not run' }
const MODES = {
  new: { heading: 'New scenario', submit: 'Save scenario' },
  edit: { heading: 'Edit scenario', submit: 'Save changes' },
  copy: { heading: 'Copy scenario', submit: 'Save the copy' },
} as const
type Mode = keyof typeof MODES

const base = (setId: number) => `/adviceset/${setId}/advicescenario`

function common(request: FastifyRequest, set: { id: number; name: string; ownerId: string }) {
  return {
    formatDate: dateFormatter(request.user!.preferences.tz),
    statusLabels: STATUS_LABELS,
    base: base(set.id),
    currentAdviceSet: { id: set.id, name: set.name, ownerId: set.ownerId },
  }
}

const setOf = (s: ScenarioItem) => ({ id: s.adviceSetId, name: s.adviceSetName, ownerId: s.adviceSetOwnerId })

/** The scenario, when it is in the set the URL names. */
async function scenarioIn(app: FastifyInstance, actor: Actor, params: Static<typeof ScenarioParams>): Promise<ScenarioItem> {
  const scenario = await getScenario(app.deps, actor, itemId(params.scenarioId, 'scenarioId'))
  if (scenario.adviceSetId !== itemId(params.id)) throw new NotFoundError('No advice scenario with this id in this advice set')
  return scenario
}

async function formPage(reply: FastifyReply, request: FastifyRequest, form: ScenarioFormModel, p: {
  mode: Mode; action: string; values: ScenarioFormValues; scenario?: ScenarioItem; filled?: boolean; recorded?: string; errors?: Record<string, string>; formError?: string
}) {
  const set = form.scope.set
  const known = (ids: string[], list: Array<{ id: string }>) => ids.filter((id) => !list.some((n) => n.id === id))
  return reply.page('advicescenario/form', {
    ...common(request, set),
    title: `${MODES[p.mode].heading} · ${set.nameAlt || set.name}`,
    set, mode: p.mode, labels: MODES[p.mode], action: p.action, scenario: p.scenario ?? null,
    fields: fieldsFor(form, p.values.inputs),
    adviceNodes: form.adviceNodes, questions: form.questions,
    staleAdvice: known(p.values.advice, form.adviceNodes),
    staleFocus: p.values.focus !== FOCUS_COMPLETE && !form.questions.some((q) => q.id === p.values.focus) ? p.values.focus : null,
    variables: [
      ...form.variables.map((v) => ({ name: v.name, kind: v.kind })),
      ...Object.keys(p.values.variables).filter((n) => !form.variables.some((v) => v.name === n)).map((name) => ({ name, kind: 'variable' })),
    ],
    apis: form.apis, values: p.values, filled: p.filled ?? false, recorded: p.recorded ?? null,
    ...(p.errors ? { errors: p.errors, formError: p.formError } : {}),
  })
}

const blankValues = (name = '', runAsOf = ''): ScenarioFormValues => ({ name, description: '', runAsOf, inputs: {}, advice: [], focus: FOCUS_COMPLETE, variables: {}, pinned: {} })

/** The expected outcome of a run of the form's answers on the draft, keeping the variables the author chose. */
async function filledValues(app: FastifyInstance, actor: Actor, form: ScenarioFormModel, values: ScenarioFormValues): Promise<ScenarioFormValues> {
  const input = scenarioInputOf(fieldsFor(form, values.inputs), values)
  const preview = await previewRun(app.deps, actor, {
    adviceSetId: form.scope.set.id, inputs: input.inputs, runAsOf: input.runAsOf, variables: Object.keys(values.variables),
    pinnedResponses: parsePinnedResponses(input.pinnedResponses, form.scope.compiled),
  })
  return {
    ...values, advice: preview.expected.advice, focus: preview.expected.focus,
    variables: Object.fromEntries(Object.entries(preview.expected.variables).map(([name, value]) => [name, textOfValue(value)])),
  }
}

/** "Record from a live call" for one API: its pinned answer filled from a live request with the form's answers. */
async function recordedValues(app: FastifyInstance, actor: Actor, form: ScenarioFormModel, values: ScenarioFormValues, apiId: string): Promise<ScenarioFormValues> {
  const input = scenarioInputOf(fieldsFor(form, values.inputs), { ...values, pinned: Object.fromEntries(Object.entries(values.pinned).filter(([id]) => id !== apiId)) })
  const recorded = await recordLiveResponse(app.deps, actor, {
    adviceSetId: form.scope.set.id, apiId, inputs: input.inputs, runAsOf: input.runAsOf, pinnedResponses: input.pinnedResponses,
  })
  return { ...values, pinned: { ...values.pinned, [apiId]: pinnedFormValue(recorded) } }
}

/**
 * A posted form: "fill" shows it again with the expected outcome of a run, "record:<apiId>" with that API's answer
 * recorded from a live call; otherwise `save` runs and we go to the show page.
 */
async function postForm(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, form: ScenarioFormModel, p: {
  mode: Mode; action: string; body: Record<string, unknown>; scenario?: ScenarioItem; save(input: ReturnType<typeof scenarioInputOf>): Promise<{ id: number }>; done: string
}) {
  const actor = actorOf(request)
  const values = formValuesFromBody(p.body)
  try {
    if (p.body.action === 'fill') {
      return await formPage(reply, request, form, { ...p, values: await filledValues(app, actor, form, values), filled: true })
    }
    const record = typeof p.body.action === 'string' ? /^record:(\d{1,15})$/.exec(p.body.action) : null
    if (record) {
      const name = form.apis.find((a) => a.apiId === record[1])?.name ?? `External API ${record[1]}`
      return await formPage(reply, request, form, { ...p, values: await recordedValues(app, actor, form, values, record[1]!), recorded: name })
    }
    const saved = await p.save(scenarioInputOf(fieldsFor(form, values.inputs), values))
    reply.flash({ type: 'info', text: p.done })
    return reply.redirect(`${base(form.scope.set.id)}/${saved.id}/show`, 303)
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error
    reply.code(400)
    return formPage(reply, request, form, { ...p, values, ...formErrors(error.fields) })
  }
}

/** `?inputs=` (a JSON object of answers, as the debugger's "Save as scenario" sends it), parsed or refused by field. */
function prefilledInputs(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined || raw === '') return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    throw new ValidationError('inputs', 'inputs: must be a JSON object of answers by variable name.')
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ValidationError('inputs', 'inputs: must be a JSON object of answers by variable name.')
  return parsed as Record<string, unknown>
}

/** The scenario form, refused before it is shown (not on save, losing what was typed) to whoever may not save it. */
async function writableForm(app: FastifyInstance, actor: Actor, adviceSetId: number): Promise<ScenarioFormModel> {
  const form = await scenarioFormModel(app.deps, actor, adviceSetId)
  assertCanChange(actor, form.scope.set.ownerId, 'advice set’s scenarios')
  return form
}

export const adviceScenarioPages: FastifyPluginAsyncTypebox = async (app) => {
  const setRoute = { preHandler: requireUser, schema: { params: SetParams } }
  const scenarioRoute = { preHandler: requireUser, schema: { params: ScenarioParams } }
  const scenarioForm = { preHandler: requireUser, schema: { params: ScenarioParams, body: FormBody } }

  app.get('/adviceset/:id/advicescenario/index', { preHandler: requireUser, schema: { params: SetParams, querystring: IndexQuery } }, async (request, reply) => {
    const actor = actorOf(request)
    const model = await scenarioIndexModel(app.deps, actor, itemId(request.params.id), { failingOnly: request.query.failing === '1' })
    // Right after a delete, the list offers it back.
    const deleted = request.query.deleted === undefined ? null : await deletedScenarioOf(app.deps, actor, model.set.id, itemId(request.query.deleted, 'deleted'))
    return reply.page('advicescenario/index', {
      ...common(request, model.set), ...model, title: `Scenarios · ${model.set.nameAlt || model.set.name}`, deleted,
      jobsPanel: await jobsPanel(app.deps, actor, scenarioJobSubject(model.set.id)),
    })
  })

  /** One scenario runs while the request waits (it takes milliseconds); all of them run as a job. */
  app.post('/adviceset/:id/advicescenario/test', { preHandler: requireUser, schema: { params: SetParams, body: FormBody } }, async (request, reply) => {
    const id = itemId(request.params.id)
    const body = request.body ?? {}
    const source = parseRunSource(body.source)
    const list = `${base(id)}/index${body.failing === '1' ? '?failing=1' : ''}`
    if (body.scenarioId === undefined) {
      const job = await startRunAllJob(app.deps, actorOf(request), { adviceSetId: id, source })
      reply.flash({ type: 'info', text: `${job.title}: started. Its progress is shown above the list.` })
      return reply.redirect(list, 303)
    }
    const scenarioId = itemId(body.scenarioId, 'scenarioId')
    const batch = await runScenarios(app.deps, actorOf(request), { adviceSetId: id, scenarioIds: [scenarioId], source })
    const result = batch.results[0]!
    const said = { pass: 'passes', fail: 'fails', error: 'could not run' }[result.status]
    reply.flash({ type: result.status === 'pass' ? 'info' : 'error', text: `“${result.name}” ${said} on the ${batch.source.label === 'Draft' ? 'draft' : batch.source.label}.` })
    return reply.redirect(body.back === 'show' ? `${base(id)}/${scenarioId}/show?run=${result.runId}` : list, 303)
  })

  app.get('/adviceset/:id/advicescenario/new', { preHandler: requireUser, schema: { params: SetParams, querystring: NewQuery } }, async (request, reply) => {
    const actor = actorOf(request)
    const form = await writableForm(app, actor, itemId(request.params.id))
    const action = `${base(form.scope.set.id)}/new`
    const query = request.query
    const start = blankValues(query.name ?? '', query.runAsOf ?? '')
    if (query.inputs === undefined) return formPage(reply, request, form, { mode: 'new', action, values: start })
    // Prefilled (the debugger's "Save as scenario", generated branches): the expected outcome comes from a run.
    let values = start
    try {
      const inputs = prefilledInputs(query.inputs)
      values = formValuesOf(fieldsFor(form, inputs), { ...start, inputs, runAsOf: start.runAsOf || null, expected: { advice: [], focus: FOCUS_COMPLETE, variables: {} } })
      return await formPage(reply, request, form, { mode: 'new', action, values: await filledValues(app, actor, form, values), filled: true })
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      reply.code(400)
      return formPage(reply, request, form, { mode: 'new', action, values, ...formErrors(error.fields) })
    }
  })

  app.post('/adviceset/:id/advicescenario/new', { preHandler: requireUser, schema: { params: SetParams, body: FormBody } }, async (request, reply) => {
    const actor = actorOf(request)
    const form = await writableForm(app, actor, itemId(request.params.id))
    return postForm(app, request, reply, form, {
      mode: 'new', action: `${base(form.scope.set.id)}/new`, body: request.body ?? {}, done: 'Scenario saved. Run it to see whether it passes.',
      save: (input) => createScenario(app.deps, actor, { ...input, adviceSetId: form.scope.set.id }),
    })
  })

  app.get('/adviceset/:id/advicescenario/:scenarioId/show', { preHandler: requireUser, schema: { params: ScenarioParams, querystring: ShowQuery } }, async (request, reply) => {
    const actor = actorOf(request)
    const scenario = await scenarioIn(app, actor, request.params)
    const model = await scenarioShowModel(app.deps, actor, scenario.id, request.query.run === undefined ? {} : { runId: itemId(request.query.run, 'run') })
    return reply.page('advicescenario/show', { ...common(request, model.set), ...model, title: `${scenario.name} · Scenario` })
  })

  for (const mode of ['edit', 'copy'] as const) {
    app.get(`/adviceset/:id/advicescenario/:scenarioId/${mode}`, scenarioRoute, async (request, reply) => {
      const actor = actorOf(request)
      const scenario = await scenarioIn(app, actor, request.params)
      const form = await writableForm(app, actor, scenario.adviceSetId)
      const values = formValuesOf(fieldsFor(form, scenario.inputs), { ...scenario, name: mode === 'copy' ? `Copy of ${scenario.name}`.slice(0, 200) : scenario.name })
      return formPage(reply, request, form, { mode, action: `${base(scenario.adviceSetId)}/${scenario.id}/${mode}`, values, scenario })
    })
  }

  app.post('/adviceset/:id/advicescenario/:scenarioId/edit', scenarioForm, async (request, reply) => {
    const actor = actorOf(request)
    const scenario = await scenarioIn(app, actor, request.params)
    const form = await writableForm(app, actor, scenario.adviceSetId)
    return postForm(app, request, reply, form, {
      mode: 'edit', action: `${base(scenario.adviceSetId)}/${scenario.id}/edit`, body: request.body ?? {}, scenario, done: 'Scenario saved.',
      save: (input) => updateScenario(app.deps, actor, scenario.id, input),
    })
  })

  app.post('/adviceset/:id/advicescenario/:scenarioId/copy', scenarioForm, async (request, reply) => {
    const actor = actorOf(request)
    const scenario = await scenarioIn(app, actor, request.params)
    const form = await writableForm(app, actor, scenario.adviceSetId)
    return postForm(app, request, reply, form, {
      mode: 'copy', action: `${base(scenario.adviceSetId)}/${scenario.id}/copy`, body: request.body ?? {}, scenario, done: 'Copy saved.',
      save: (input) => copyScenario(app.deps, actor, scenario.id, input),
    })
  })

  app.get('/adviceset/:id/advicescenario/:scenarioId/delete', scenarioRoute, async (request, reply) => {
    const actor = actorOf(request)
    const scenario = await scenarioIn(app, actor, request.params)
    // Asked only of whoever may answer it: a viewer would press Delete and be refused.
    assertCanChange(actor, scenario.adviceSetOwnerId, 'advice set’s scenarios')
    const uses = Object.values(await listScenarioUses(app.deps, actor, scenario.id)).flat()
    return reply.page('advicescenario/delete', { ...common(request, setOf(scenario)), title: `Delete ${scenario.name}`, scenario, uses })
  })

  app.post('/adviceset/:id/advicescenario/:scenarioId/delete', scenarioRoute, async (request, reply) => {
    const actor = actorOf(request)
    const scenario = await scenarioIn(app, actor, request.params)
    try {
      await deleteScenario(app.deps, actor, scenario.id)
    } catch (error) {
      if (!(error instanceof DeleteNotAllowedError)) throw error
      reply.code(221)
      return reply.page('advicescenario/delete', { ...common(request, setOf(scenario)), title: `Delete ${scenario.name}`, scenario, uses: error.dependents, formError: error.message })
    }
    return reply.redirect(`${base(scenario.adviceSetId)}/index?deleted=${scenario.id}`, 303)
  })

  app.post('/adviceset/:id/advicescenario/:scenarioId/restore', scenarioRoute, async (request, reply) => {
    const setId = itemId(request.params.id)
    const restored = await restoreScenario(app.deps, actorOf(request), itemId(request.params.scenarioId, 'scenarioId'))
    if (restored.adviceSetId !== setId) throw new NotFoundError('No advice scenario with this id in this advice set')
    reply.flash({ type: 'info', text: `Scenario “${restored.name}” restored.` })
    return reply.redirect(`${base(setId)}/${restored.id}/show`, 303)
  })
}
