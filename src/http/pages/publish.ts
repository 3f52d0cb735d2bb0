// Publisher pages (SPEC §2 Publisher row): a set's versions with the actions the current user may take, one version
// with its review gate (scenario results against the published version, coverage, static checks), its changes against
// the published one and its history, and publish/assign (versions for audiences). Every action is a plain form; the
// services decide who may do what and the pages say why an action is not offered. Approving over the gate's risks
// needs its "Approve anyway" box ticked: without it the page comes back (400) with the reason beside the box.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox'
import { getAdviceSet } from '../../services/library/advice-sets.ts'
import { createAudience, updateAudience } from '../../services/publishing/audiences.ts'
import { canAdministerOwned } from '../../services/accounts/visibility.ts'
import { ConflictError, DomainError, ForbiddenError, NotFoundError, ValidationError } from '../../services/errors.ts'
import type { Actor } from '../../services/context.ts'
import { assignVersion, getPublishConfig } from '../../services/publishing/publish-config.ts'
import { listVersionsWithActions, versionDetail } from '../../services/publishing/pages.ts'
import { reviewGate } from '../../services/publishing/review-gate.ts'
import { replaySubject, startReplayJob } from '../../services/publishing/replay-gate.ts'
import { REPLAY_MAX } from '../../services/decisions/replay-batch.ts'
import { jobsPanel } from '../../services/operations/jobs.ts'
import { versionCoverage, type CoverageView } from '../../services/publishing/review-coverage.ts'
import { restoreVersion } from '../../services/publishing/restore.ts'
import { TRANSITIONS, VERSION_ACTIONS, isVersionAction, transitionVersion, versionWithSet } from '../../services/publishing/workflow.ts'
import { createVersion } from '../../services/publishing/versions.ts'
import { itemId } from '../api/ids.ts'
import { countOf, dateFormatter } from '../format.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { FormBody, IdParams, IdString } from '../schemas.ts'
import { redirectWithin } from '../header-values.ts'

const VersionParams = Type.Object({ id: IdString, versionId: IdString })
const AudienceParams = Type.Object({ id: IdString, audienceId: IdString })
const idRoute = { preHandler: requireUser, schema: { params: IdParams } }
const idFormRoute = { preHandler: requireUser, schema: { params: IdParams, body: FormBody } }

const STATE_LABELS: Record<string, string> = {
  draft: 'Draft', review: 'In review', approved: 'Approved', published: 'Published', preview: 'Preview', unpublished: 'Unpublished',
}

/** How the version page's history names each logged step, past tense. */
const HISTORY_LABELS: Record<string, string> = {
  submit: 'Submitted for review', requestChanges: 'Changes requested', approve: 'Approved', preview: 'Put in preview',
  publish: 'Published', unpublish: 'Unpublished', replacedByPublish: 'Unpublished: a newer version was published',
  replacedByPreview: 'Left preview: another version went into preview',
}

const SCENARIO_STATUS_LABELS = { pass: 'Pass', fail: 'Fail', error: 'Error', notRun: 'Not run' }

/** The coverage section's data: the coverage, and for a large version where to start or follow its generation. */
function coverageData(versionPath: string, coverage: CoverageView) {
  const task = 'task' in coverage ? coverage.task : null
  return {
    ...coverage,
    start: `${versionPath}/coverage`,
    refresh: `${versionPath}#coverage`,
    taskProps: task ? {
      statusUrl: `/api/adviceset/generate-branches/tasks/${task.id}`, cancelUrl: `/api/adviceset/generate-branches/tasks/${task.id}/cancel`,
      resultsUrl: `${versionPath}/coverage`, state: task.state, done: task.done, total: task.total, unit: 'paths',
    } : null,
  }
}

function setIdOf(params: Static<typeof IdParams>): number {
  return itemId(params.id)
}
function versionIdOf(params: Static<typeof VersionParams>): number {
  return itemId(params.versionId, 'versionId')
}

/** Refusals a user can cause by clicking (role, state, four-eyes, bad input) come back as a message on the page. */
function isRefusal(error: unknown): error is DomainError {
  return error instanceof ForbiddenError || error instanceof ConflictError || error instanceof ValidationError
}

/**
 * Runs a form's action and flashes its outcome: the message it returns, or a refusal's under `refused`. True when
 * it went through; an error that is no refusal is thrown on.
 */
async function flashOutcome(reply: FastifyReply, refused: string, action: () => Promise<string>, rethrow: (error: unknown) => boolean = () => false): Promise<boolean> {
  try {
    reply.flash({ type: 'info', text: await action() })
    return true
  } catch (error) {
    if (!isRefusal(error) || rethrow(error)) throw error
    reply.flash({ type: 'error', heading: refused, text: error.message })
    return false
  }
}

/** The version, when it belongs to the set the URL names. */
async function versionInSet(app: FastifyInstance, actor: Actor, adviceSetId: number, versionId: number) {
  const { version } = await versionWithSet(app.deps.db, actor, versionId)
  if (version.adviceSetId !== adviceSetId) throw new NotFoundError('No version with this id in this advice set')
  return version
}

async function common(app: FastifyInstance, request: FastifyRequest, adviceSetId: number) {
  const actor = actorOf(request)
  const set = await getAdviceSet(app.deps, actor, adviceSetId)
  return {
    set,
    formatDate: dateFormatter(request.user!.preferences.tz),
    stateLabels: STATE_LABELS,
    currentAdviceSet: { id: set.id, name: set.name, ownerId: set.ownerId },
  }
}

async function indexData(app: FastifyInstance, request: FastifyRequest, params: Static<typeof IdParams>) {
  const actor = actorOf(request)
  const base = await common(app, request, setIdOf(params))
  const [listing, config] = await Promise.all([
    listVersionsWithActions(app.deps, actor, base.set.id),
    getPublishConfig(app.deps, actor, base.set.id),
  ])
  return { ...base, title: `Publish ${base.set.name}`, tab: 'versions', versions: listing.versions, canCreate: listing.canCreate, config }
}

export const publishPages: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/adviceset/:id/publish', idRoute, async (request, reply) => reply.page('publish/index', await indexData(app, request, request.params)))
  app.get('/adviceset/:id/publish/versions', idRoute, async (request, reply) => reply.page('publish/index', await indexData(app, request, request.params)))

  /** The version page: its detail, the review gate and its coverage (`errors`: a refused approval's field). */
  async function versionPage(request: FastifyRequest, reply: FastifyReply, params: Static<typeof VersionParams>, errors: Record<string, string> = {}, extra: Record<string, unknown> = {}) {
    const actor = actorOf(request)
    const base = await common(app, request, setIdOf(params))
    const versionId = versionIdOf(params)
    const [detail, gate, coverage, replayJobs] = await Promise.all([
      versionDetail(app.deps, actor, base.set.id, versionId), reviewGate(app.deps, actor, base.set.id, versionId), versionCoverage(app.deps, actor, base.set.id, versionId),
      jobsPanel(app.deps, actor, replaySubject(base.set.id, versionId)),
    ])
    const here = `/adviceset/${base.set.id}/publish/versions/${versionId}`
    return reply.page('publish/version', {
      ...base, ...detail, set: base.set, historyLabels: HISTORY_LABELS, title: `Version ${detail.version.number} of ${base.set.name}`, tab: 'versions',
      gate, coverage: coverageData(here, coverage), statusLabels: SCENARIO_STATUS_LABELS, errors, ...extra,
      replayJobs, replayMax: REPLAY_MAX,
    })
  }

  app.get('/adviceset/:id/publish/versions/:versionId', { preHandler: requireUser, schema: { params: VersionParams } }, async (request, reply) =>
    versionPage(request, reply, request.params))

  /** The coverage section alone: what the progress island shows once a large version's branches are generated. */
  app.get('/adviceset/:id/publish/versions/:versionId/coverage', { preHandler: requireUser, schema: { params: VersionParams } }, async (request, reply) => {
    const setId = setIdOf(request.params)
    const versionId = versionIdOf(request.params)
    const coverage = await versionCoverage(app.deps, actorOf(request), setId, versionId)
    const html = await reply.viewAsync('publish/_coverage', {
      coverage: coverageData(`/adviceset/${setId}/publish/versions/${versionId}`, coverage), csrfToken: reply.generateCsrf(), fragment: true,
    })
    reply.type('text/html; charset=utf-8')
    return html
  })

  /** Starts replaying the published version's recorded answers on this version, as a job (the gate's jobs panel follows it). */
  app.post('/adviceset/:id/publish/versions/:versionId/replay', { preHandler: requireUser, schema: { params: VersionParams, body: FormBody } }, async (request, reply) => {
    const setId = setIdOf(request.params)
    const versionId = versionIdOf(request.params)
    const count = request.body?.count
    try {
      await startReplayJob(app.deps, actorOf(request), setId, versionId, count)
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      reply.code(400)
      return versionPage(request, reply, request.params, { [error.field]: error.message }, { replayCount: count })
    }
    return reply.redirect(`/adviceset/${setId}/publish/versions/${versionId}#replay`, 303)
  })

  /** Starts generating a large version's branches for its coverage. */
  app.post('/adviceset/:id/publish/versions/:versionId/coverage', { preHandler: requireUser, schema: { params: VersionParams } }, async (request, reply) => {
    const setId = setIdOf(request.params)
    const versionId = versionIdOf(request.params)
    await versionCoverage(app.deps, actorOf(request), setId, versionId, { start: true })
    return reply.redirect(`/adviceset/${setId}/publish/versions/${versionId}#coverage`, 303)
  })

  app.get('/adviceset/:id/publish/assign', idRoute, async (request, reply) => {
    const actor = actorOf(request)
    const base = await common(app, request, setIdOf(request.params))
    const [config, listing] = await Promise.all([getPublishConfig(app.deps, actor, base.set.id), listVersionsWithActions(app.deps, actor, base.set.id)])
    return reply.page('publish/assign', {
      ...base, title: `Assign versions of ${base.set.name}`, tab: 'assign', config,
      assignable: listing.versions.filter((v) => v.approvedAt !== null && v.state !== 'review' && v.state !== 'draft'),
      canManage: canAdministerOwned(actor, base.set.ownerId),
    })
  })

  app.post('/adviceset/:id/publish/create', idFormRoute, async (request, reply) => {
    const id = setIdOf(request.params)
    await flashOutcome(reply, 'No version created', async () => {
      const version = await createVersion(app.deps, actorOf(request), { adviceSetId: id, notes: request.body?.notes })
      return `Version ${version.number} created as a draft. Submit it for review when it is ready.`
    })
    return reply.redirect(`/adviceset/${id}/publish/versions`, 303)
  })

  app.post('/adviceset/:id/publish/versions/:versionId/action', { preHandler: requireUser, schema: { params: VersionParams, body: FormBody } }, async (request, reply) => {
    const id = setIdOf(request.params)
    const body = request.body ?? {}
    const action = isVersionAction(body.action) ? body.action : null
    if (!action) throw new ValidationError('action', `action: must be one of ${VERSION_ACTIONS.join(', ')}.`)
    const acknowledgeRisks = ['true', '1', 'on'].includes(String(body.acknowledgeRisks ?? ''))
    try {
      await flashOutcome(reply, `${TRANSITIONS[action].label} refused`, async () => {
        await versionInSet(app, actorOf(request), id, versionIdOf(request.params))
        const notes = typeof body.notes === 'string' && body.notes.trim() ? body.notes.trim().slice(0, 5000) : undefined
        const version = await transitionVersion(app.deps, actorOf(request), versionIdOf(request.params), action, notes, { acknowledgeRisks })
        return `${TRANSITIONS[action].label}: version ${version.number} is now ${STATE_LABELS[version.state]!.toLowerCase()}.`
      }, (error) => error instanceof ValidationError && error.field === 'acknowledgeRisks')
    } catch (error) {
      // The review gate's refusal: the version page again, the reason beside the box to tick.
      if (!(error instanceof ValidationError)) throw error
      reply.code(400)
      return versionPage(request, reply, request.params, { acknowledgeRisks: error.message })
    }
    // Back to the page the form was on, when that is one of this set's publishing pages.
    return redirectWithin(reply, body.next, `/adviceset/${id}/publish/versions`, { code: 303, under: `/adviceset/${id}/publish` })
  })

  app.post('/adviceset/:id/publish/versions/:versionId/restore', { preHandler: requireUser, schema: { params: VersionParams } }, async (request, reply) => {
    const id = setIdOf(request.params)
    const restored = await flashOutcome(reply, 'Not restored', async () => {
      const version = await versionInSet(app, actorOf(request), id, versionIdOf(request.params))
      const content = await restoreVersion(app.deps, actorOf(request), version.id)
      return `Version ${version.number} restored into the working draft: ${countOf(content.rules, 'rule')}, ${countOf(content.nodes, 'node')}.`
    })
    return reply.redirect(restored ? `/adviceset/${id}/show` : `/adviceset/${id}/publish/versions/${versionIdOf(request.params)}`, 303)
  })

  app.post('/adviceset/:id/publish/assign', idFormRoute, async (request, reply) => {
    const id = setIdOf(request.params)
    const body = request.body ?? {}
    await flashOutcome(reply, 'Not assigned', async () => {
      const versionId = body.versionId === '' || body.versionId === undefined ? null : itemId(body.versionId, 'versionId')
      await assignVersion(app.deps, actorOf(request), { adviceSetId: id, audienceId: itemId(body.audienceId, 'audienceId'), versionId })
      return versionId === null ? 'The audience gets the published version again.' : 'Version assigned to the audience.'
    })
    return reply.redirect(`/adviceset/${id}/publish/assign`, 303)
  })

  app.post('/adviceset/:id/publish/audience', idFormRoute, async (request, reply) => {
    const id = setIdOf(request.params)
    const body = request.body ?? {}
    await flashOutcome(reply, 'No audience created', async () => {
      const set = await getAdviceSet(app.deps, actorOf(request), id)
      const audience = await createAudience(app.deps, actorOf(request), set.ownerId, { name: body.name, description: body.description })
      return `Audience “${audience.name}” created.`
    })
    return reply.redirect(`/adviceset/${id}/publish/assign`, 303)
  })

  app.post('/adviceset/:id/publish/audience/:audienceId', { preHandler: requireUser, schema: { params: AudienceParams, body: FormBody } }, async (request, reply) => {
    const id = setIdOf(request.params)
    const body = request.body ?? {}
    await flashOutcome(reply, 'Not renamed', async () => {
      const set = await getAdviceSet(app.deps, actorOf(request), id)
      const audienceId = itemId(request.params.audienceId, 'audienceId')
      const audience = await updateAudience(app.deps, actorOf(request), set.ownerId, audienceId, { name: body.name })
      return `Audience renamed to “${audience.name}”.`
    })
    return reply.redirect(`/adviceset/${id}/publish/assign`, 303)
  })
}
