// The set's testing tools (SPEC §2 Advice scenario row; page names generate-branches, generate-summary):
// gen-branches (optionally from a scenario's answers, gen-branches/{id}), gen-branches/compare and gen-summary.
// GET never starts work in the background: a small set is generated while the page renders, a large one gets a
// form whose POST starts a task and redirects to `?task=…`, where the task-progress island follows it and swaps in
// the results (`…&fragment=1`) when it is done. Without JavaScript the task page has a Refresh link and Cancel.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox'
import type { Actor } from '../../services/context.ts'
import { ConflictError, ValidationError } from '../../services/errors.ts'
import { draftReplay, startReplayJob } from '../../services/publishing/replay-gate.ts'
import { REPLAY_MAX } from '../../services/decisions/replay-batch.ts'
import { formErrors } from './forms.ts'
import { compareSources, comparisonTask, type CompareView } from '../../services/scenarios/branch-compare.ts'
import { MAX_BRANCH_LIMIT } from '../../services/scenarios/branch-requests.ts'
import type { TaskStatus } from '../../services/scenarios/branch-task.ts'
import { DIRECT_PATHS, coverageOfBranches, generateSetBranches, generationTask, sourceCoverage, type BranchesView } from '../../services/scenarios/branches.ts'
import { scenarioStartingAnswers } from '../../services/scenarios/scenario-answers.ts'
import { setSummary } from '../../services/scenarios/set-summary.ts'
import { publishedKey, readableSet, seesVersions, sourceChoices } from '../../services/scenarios/sources.ts'
import { cancelBranchTask } from '../../services/scenarios/task-access.ts'
import { itemId } from '../api/ids.ts'
import { redirectWithin } from '../header-values.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { FormBody, IdString } from '../schemas.ts'

/** Rows per page of a result: a direct generation (at most DIRECT_PATHS paths) always fits on one. */
const PAGE_SIZE = DIRECT_PATHS

const SetParams = Type.Object({ ruleSetId: IdString })
const ScenarioParams = Type.Object({ ruleSetId: IdString, id: IdString })
const TaskParams = Type.Object({ ruleSetId: IdString, taskId: Type.String({ maxLength: 40 }) })
const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength }))
const BranchQuery = Type.Object({
  source: Text(40), inputs: Text(100_000), limit: Text(12), runAsOf: Text(10), task: Text(40), page: Text(6), fragment: Text(1),
}, { additionalProperties: false })
const CompareQuery = Type.Object({
  base: Text(40), next: Text(40), limit: Text(12), runAsOf: Text(10), task: Text(40), page: Text(6), fragment: Text(1),
}, { additionalProperties: false })
const SummaryQuery = Type.Object({ source: Text(40) }, { additionalProperties: false })

type BranchQueryValues = Static<typeof BranchQuery>

const setIdOf = (params: { ruleSetId: string }) => itemId(params.ruleSetId, 'ruleSetId')
const base = (setId: number) => `/adviceset/${setId}/advicescenario`

function pageNumber(raw: string | undefined): number {
  const n = Number(raw ?? '1')
  return Number.isInteger(n) && n >= 1 ? n : 1
}

/** One page of a list, and the links around it. */
function paged<T>(items: T[], page: number) {
  const pages = Math.max(1, Math.ceil(items.length / PAGE_SIZE))
  const current = Math.min(page, pages)
  return { items: items.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE), page: current, pages }
}

function href(path: string, query: Record<string, string | number | null | undefined>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) if (value !== null && value !== undefined && value !== '') params.set(key, String(value))
  const text = params.toString()
  return text ? `${path}?${text}` : path
}

/** What every tool page shows around its content: the set, the tool tabs, the form's choices. */
async function toolPage(app: FastifyInstance, actor: Actor, setId: number) {
  const set = await readableSet(app.deps, actor, setId)
  const name = set.nameAlt || set.name
  return {
    set: { id: set.id, name },
    base: base(set.id),
    sources: await sourceChoices(app.deps, actor, set),
    seesVersions: seesVersions(actor, set),
    published: await publishedKey(app.deps, actor, set),
    maxLimit: MAX_BRANCH_LIMIT,
    currentAdviceSet: { id: set.id, name, ownerId: set.ownerId },
  }
}

/**
 * The task panel of a tool page (`page`: gen-branches or gen-branches/compare): the island's props (where to read the
 * task's progress, stop it, and fetch its results) and, for the page without JavaScript, Refresh and Cancel.
 */
function taskPanel(toolBase: string, page: string, status: TaskStatus) {
  const own = `${toolBase}/${page}?task=${status.id}`
  return {
    status,
    props: {
      statusUrl: `/api/adviceset/generate-branches/tasks/${status.id}`,
      cancelUrl: `/api/adviceset/generate-branches/tasks/${status.id}/cancel`,
      resultsUrl: `${own}&fragment=1`, state: status.state, done: status.done, total: status.total, unit: status.kind === 'compare' ? 'steps' : 'paths',
    },
    refresh: own,
    cancelAction: `${toolBase}/gen-branches/tasks/${status.id}/cancel`,
  }
}

async function branchResults(app: FastifyInstance, actor: Actor, view: BranchesView, page: number, pageHref: (page: number) => string) {
  return { view, rows: paged(view.branches, page), pageHref, coverage: await coverageOfBranches(app.deps, actor, view) }
}

async function renderFragment(reply: FastifyReply, template: string, data: Record<string, unknown>) {
  const html = await reply.viewAsync(template, data)
  reply.type('text/html; charset=utf-8')
  return html
}

/**
 * A refused request (a bad field, or too many tasks running) as the form shows it: the page again with the message
 * beside the field and the typed values kept. Anything else (404, a fault) is thrown on to the error handler.
 */
function refusal(error: unknown): { status: number; errors: Record<string, string>; formError: string } {
  if (error instanceof ValidationError) return { status: 400, ...formErrors(error.fields) }
  if (error instanceof ConflictError) return { status: 409, errors: {}, formError: error.message }
  throw error
}

export const branchToolPages: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps

  /** gen-branches with the request's knobs (and a scenario's starting answers, for gen-branches/{id}). */
  async function branchesPage(request: FastifyRequest, reply: FastifyReply, setId: number, query: BranchQueryValues, scenario: { id: number; name: string } | null) {
    const actor = actorOf(request)
    const tools = await toolPage(app, actor, setId)
    const values = { source: query.source ?? 'draft', inputs: query.inputs ?? '', limit: query.limit ?? '', runAsOf: query.runAsOf ?? '' }
    const data = { ...tools, title: `Generated branches · ${tools.set.name}`, values, errors: {}, scenario, view: null, results: null, pending: null, task: null }
    if (query.task) return taskPage(request, reply, tools, query)
    try {
      const outcome = await generateSetBranches(deps, actor, { adviceSetId: setId, ...values, directOnly: true })
      if (outcome.pending) return reply.page('advicescenario/gen-branches', { ...data, pending: outcome.pending })
      const pageHref = (page: number) => href(`${tools.base}/gen-branches${scenario ? `/${scenario.id}` : ''}`, { ...values, page })
      return reply.page('advicescenario/gen-branches', { ...data, view: outcome.view, results: await branchResults(app, actor, outcome.view!, pageNumber(query.page), pageHref) })
    } catch (error) {
      const { status, errors, formError } = refusal(error)
      reply.code(status)
      return reply.page('advicescenario/gen-branches', { ...data, errors, formError })
    }
  }

  /** A background generation: its progress while it runs, its results when done (`fragment`: the results alone). */
  async function taskPage(request: FastifyRequest, reply: FastifyReply, tools: Awaited<ReturnType<typeof toolPage>>, query: BranchQueryValues) {
    const { status, context, view } = await generationTask(deps, actorOf(request), query.task!)
    if (status.adviceSetId !== tools.set.id) return reply.callNotFound()
    const pageHref = (page: number) => href(`${tools.base}/gen-branches`, { task: status.id, page })
    const results = view ? await branchResults(app, actorOf(request), view, pageNumber(query.page), pageHref) : null
    if (query.fragment) return renderFragment(reply, 'advicescenario/_branch-results', { results, base: tools.base })
    const values = { source: context.source.key, inputs: Object.keys(context.startingInputs).length ? JSON.stringify(context.startingInputs) : '', limit: String(context.limit), runAsOf: context.runAsOf ?? '' }
    return reply.page('advicescenario/gen-branches', {
      ...tools, title: `Generated branches · ${tools.set.name}`, values, errors: {}, scenario: null, view, results, pending: null,
      task: taskPanel(tools.base, 'gen-branches', status),
    })
  }

  app.get('/adviceset/:ruleSetId/advicescenario/gen-branches', { preHandler: requireUser, schema: { params: SetParams, querystring: BranchQuery } }, async (request, reply) =>
    branchesPage(request, reply, setIdOf(request.params), request.query, null))

  app.get('/adviceset/:ruleSetId/advicescenario/gen-branches/:id', { preHandler: requireUser, schema: { params: ScenarioParams, querystring: BranchQuery } }, async (request, reply) => {
    const setId = setIdOf(request.params)
    const scenarioId = itemId(request.params.id)
    await readableSet(deps, actorOf(request), setId)
    const start = await scenarioStartingAnswers(deps, actorOf(request), setId, scenarioId)
    const query = { ...request.query, inputs: request.query.inputs ?? JSON.stringify(start.inputs), runAsOf: request.query.runAsOf ?? start.runAsOf ?? undefined }
    return branchesPage(request, reply, setId, query, { id: scenarioId, name: start.name })
  })

  /** Starts a generation from the form: a small one redirects to its permalink, a large one to its task page. */
  app.post('/adviceset/:ruleSetId/advicescenario/gen-branches', { preHandler: requireUser, schema: { params: SetParams, body: FormBody } }, async (request, reply) => {
    const setId = setIdOf(request.params)
    const body = request.body ?? {}
    const field = (name: string) => (typeof body[name] === 'string' ? body[name] : '')
    const values = { source: field('source') || 'draft', inputs: field('inputs'), limit: field('limit'), runAsOf: field('runAsOf') }
    try {
      // A small generation is simply done again by its permalink (a few milliseconds); a large one is a task.
      const outcome = await generateSetBranches(deps, actorOf(request), { adviceSetId: setId, ...values })
      const target = outcome.task ? { task: outcome.task.id } : values
      return redirectWithin(reply, href(`${base(setId)}/gen-branches`, target), `${base(setId)}/gen-branches`, { code: 303 })
    } catch (error) {
      const { status, errors, formError } = refusal(error)
      const tools = await toolPage(app, actorOf(request), setId)
      reply.code(status)
      return reply.page('advicescenario/gen-branches', {
        ...tools, title: `Generated branches · ${tools.set.name}`, values, errors, formError, scenario: null, view: null, results: null, pending: null, task: null,
      })
    }
  })

  /** Cancel without JavaScript (the island calls the API). */
  app.post('/adviceset/:ruleSetId/advicescenario/gen-branches/tasks/:taskId/cancel', { preHandler: requireUser, schema: { params: TaskParams, body: FormBody } }, async (request, reply) => {
    const setId = setIdOf(request.params)
    const status = await cancelBranchTask(deps, actorOf(request), request.params.taskId)
    const page = status.kind === 'compare' ? 'gen-branches/compare' : 'gen-branches'
    return redirectWithin(reply, href(`${base(setId)}/${page}`, { task: status.id }), `${base(setId)}/${page}`, { code: 303 })
  })

  app.get('/adviceset/:ruleSetId/advicescenario/gen-branches/compare', { preHandler: requireUser, schema: { params: SetParams, querystring: CompareQuery } }, async (request, reply) => {
    const actor = actorOf(request)
    const query = request.query
    const tools = await toolPage(app, actor, setIdOf(request.params))
    const values = { base: query.base ?? tools.published ?? '', next: query.next ?? 'draft', limit: query.limit ?? '', runAsOf: query.runAsOf ?? '' }
    const data = { ...tools, ...(await replayOf(actor, tools)), title: `Compare branches · ${tools.set.name}`, values, errors: {}, view: null, results: null, pending: null, task: null }
    const resultsOf = (view: CompareView, page: number, pageHref: (page: number) => string) => ({ view, changed: paged(view.changed, page), added: view.added, removed: view.removed, pageHref })
    if (query.task) {
      const { status, context, view } = await comparisonTask(deps, actor, query.task)
      if (status.adviceSetId !== tools.set.id) return reply.callNotFound()
      const pageHref = (page: number) => href(`${tools.base}/gen-branches/compare`, { task: status.id, page })
      const results = view ? resultsOf(view, pageNumber(query.page), pageHref) : null
      if (query.fragment) return renderFragment(reply, 'advicescenario/_compare-results', { results })
      return reply.page('advicescenario/gen-branches-compare', {
        ...data, values: { base: context.base.key, next: context.next.key, limit: String(context.limit), runAsOf: context.runAsOf ?? '' }, view, results,
        task: taskPanel(tools.base, 'gen-branches/compare', status),
      })
    }
    // Nothing published and no base chosen: the form alone, saying so.
    if (!values.base) return reply.page('advicescenario/gen-branches-compare', data)
    try {
      const outcome = await compareSources(deps, actor, { adviceSetId: tools.set.id, ...values, directOnly: true })
      if (outcome.pending) return reply.page('advicescenario/gen-branches-compare', { ...data, pending: outcome.pending })
      const pageHref = (page: number) => href(`${tools.base}/gen-branches/compare`, { ...values, page })
      return reply.page('advicescenario/gen-branches-compare', { ...data, view: outcome.view, results: resultsOf(outcome.view!, pageNumber(query.page), pageHref) })
    } catch (error) {
      const { status, errors, formError } = refusal(error)
      reply.code(status)
      return reply.page('advicescenario/gen-branches-compare', { ...data, errors, formError })
    }
  })

  /** The working draft's replay of recorded answers, for the set's team (who see its versions). */
  async function replayOf(actor: Actor, tools: { set: { id: number }; seesVersions: boolean }) {
    if (!tools.seesVersions) return { draftReplay: undefined }
    const { replay, jobs } = await draftReplay(deps, actor, tools.set.id)
    return { draftReplay: replay, replayJobs: jobs, replayMax: REPLAY_MAX }
  }

  /** Starts replaying the published version's recorded answers on the working draft, as a job. */
  app.post('/adviceset/:ruleSetId/advicescenario/gen-branches/compare/replay', { preHandler: requireUser, schema: { params: SetParams, body: FormBody } }, async (request, reply) => {
    const setId = setIdOf(request.params)
    await startReplayJob(deps, actorOf(request), setId, 'draft', request.body?.count)
    return reply.redirect(`${base(setId)}/gen-branches/compare#replay`, 303)
  })

  app.post('/adviceset/:ruleSetId/advicescenario/gen-branches/compare', { preHandler: requireUser, schema: { params: SetParams, body: FormBody } }, async (request, reply) => {
    const setId = setIdOf(request.params)
    const body = request.body ?? {}
    const field = (name: string) => (typeof body[name] === 'string' ? body[name] : '')
    const values = { base: field('base'), next: field('next') || 'draft', limit: field('limit'), runAsOf: field('runAsOf') }
    try {
      const outcome = await compareSources(deps, actorOf(request), { adviceSetId: setId, ...values })
      const target = outcome.task ? { task: outcome.task.id } : values
      return redirectWithin(reply, href(`${base(setId)}/gen-branches/compare`, target), `${base(setId)}/gen-branches/compare`, { code: 303 })
    } catch (error) {
      const { status, errors, formError } = refusal(error)
      const tools = await toolPage(app, actorOf(request), setId)
      reply.code(status)
      return reply.page('advicescenario/gen-branches-compare', {
        ...tools, title: `Compare branches · ${tools.set.name}`, values, errors, formError, view: null, results: null, pending: null, task: null,
      })
    }
  })

  app.get('/adviceset/:ruleSetId/advicescenario/gen-summary', { preHandler: requireUser, schema: { params: SetParams, querystring: SummaryQuery } }, async (request, reply) => {
    const actor = actorOf(request)
    const tools = await toolPage(app, actor, setIdOf(request.params))
    const source = request.query.source ?? 'draft'
    const data = { ...tools, title: `Summary · ${tools.set.name}`, values: { source }, errors: {}, summary: null, download: null, coverage: null }
    try {
      const summary = await setSummary(deps, actor, { adviceSetId: tools.set.id, source })
      const coverage = await sourceCoverage(deps, actor, { adviceSetId: tools.set.id, source: summary.source.key })
      const download = href('/api/adviceset/generate-summary', { adviceSetId: tools.set.id, source: summary.source.key, format: 'markdown' })
      return reply.page('advicescenario/gen-summary', { ...data, summary, download, coverage })
    } catch (error) {
      const { status, errors, formError } = refusal(error)
      reply.code(status)
      return reply.page('advicescenario/gen-summary', { ...data, errors, formError })
    }
  })
}
