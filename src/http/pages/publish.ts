// Publisher pages (SPEC §2 Publisher row): a set's versions with the actions the current user may take, one version
// with its changes against the published one and its history, and publish/assign (versions for audiences). Every
// action is a plain form; the services decide who may do what and the pages say why an action is not offered.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { getAdviceSet } from '../../services/advice-sets.ts'
import { canManageAudiences, createAudience, updateAudience } from '../../services/audiences.ts'
import { ConflictError, DomainError, ForbiddenError, NotFoundError, ValidationError } from '../../services/errors.ts'
import type { Actor } from '../../services/context.ts'
import { assignVersion, getPublishConfig } from '../../services/publish-config.ts'
import { listVersionsWithActions, versionDetail } from '../../services/version-pages.ts'
import { restoreVersion } from '../../services/version-restore.ts'
import { TRANSITIONS, VERSION_ACTIONS, transitionVersion, versionWithSet, type VersionAction } from '../../services/version-workflow.ts'
import { createVersion } from '../../services/versions.ts'
import { idParamSchema, itemId } from '../api/ids.ts'
import { dateFormatter } from '../format.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { safeNext } from './forms.ts'

type Body = Record<string, unknown>
const versionParams = {
  type: 'object', required: ['id', 'versionId'],
  properties: { id: { type: 'string', maxLength: 20 }, versionId: { type: 'string', maxLength: 20 } },
} as const
const audienceParams = {
  type: 'object', required: ['id', 'audienceId'],
  properties: { id: { type: 'string', maxLength: 20 }, audienceId: { type: 'string', maxLength: 20 } },
} as const
const idRoute = { preHandler: requireUser, schema: { params: idParamSchema } }

const STATE_LABELS: Record<string, string> = {
  draft: 'Draft', review: 'In review', approved: 'Approved', published: 'Published', preview: 'Preview', unpublished: 'Unpublished',
}

/** How the version page's history names each logged step, past tense. */
const HISTORY_LABELS: Record<string, string> = {
  submit: 'Submitted for review', requestChanges: 'Changes requested', approve: 'Approved', preview: 'Put in preview',
  publish: 'Published', unpublish: 'Unpublished', replacedByPublish: 'Unpublished: a newer version was published',
  replacedByPreview: 'Left preview: another version went into preview',
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

function setIdOf(request: FastifyRequest): number {
  return itemId((request.params as { id: string }).id)
}
function versionIdOf(request: FastifyRequest): number {
  return itemId((request.params as { versionId: string }).versionId, 'versionId')
}

/** Refusals a user can cause by clicking (role, state, four-eyes, bad input) come back as a message on the page. */
function isRefusal(error: unknown): error is DomainError {
  return error instanceof ForbiddenError || error instanceof ConflictError || error instanceof ValidationError
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

async function indexData(app: FastifyInstance, request: FastifyRequest) {
  const actor = actorOf(request)
  const base = await common(app, request, setIdOf(request))
  const [listing, config] = await Promise.all([
    listVersionsWithActions(app.deps, actor, base.set.id),
    getPublishConfig(app.deps, actor, base.set.id),
  ])
  return { ...base, title: `Publish ${base.set.name}`, tab: 'versions', versions: listing.versions, canCreate: listing.canCreate, config }
}

export async function publishPages(app: FastifyInstance) {
  app.get('/adviceset/:id/publish', idRoute, async (request, reply) => reply.page('publish/index', await indexData(app, request)))
  app.get('/adviceset/:id/publish/versions', idRoute, async (request, reply) => reply.page('publish/index', await indexData(app, request)))

  app.get('/adviceset/:id/publish/versions/:versionId', { preHandler: requireUser, schema: { params: versionParams } }, async (request, reply) => {
    const base = await common(app, request, setIdOf(request))
    const detail = await versionDetail(app.deps, actorOf(request), base.set.id, versionIdOf(request))
    return reply.page('publish/version', { ...base, ...detail, set: base.set, historyLabels: HISTORY_LABELS, title: `Version ${detail.version.number} of ${base.set.name}`, tab: 'versions' })
  })

  app.get('/adviceset/:id/publish/assign', idRoute, async (request, reply) => {
    const actor = actorOf(request)
    const base = await common(app, request, setIdOf(request))
    const [config, listing] = await Promise.all([getPublishConfig(app.deps, actor, base.set.id), listVersionsWithActions(app.deps, actor, base.set.id)])
    return reply.page('publish/assign', {
      ...base, title: `Assign versions of ${base.set.name}`, tab: 'assign', config,
      assignable: listing.versions.filter((v) => v.approvedAt !== null && v.state !== 'review' && v.state !== 'draft'),
      canManage: canManageAudiences(actor, base.set.ownerId),
    })
  })

  app.post('/adviceset/:id/publish/create', idRoute, async (request, reply) => {
    const id = setIdOf(request)
    try {
      const version = await createVersion(app.deps, actorOf(request), { adviceSetId: id, notes: ((request.body ?? {}) as Body).notes })
      reply.flash({ type: 'info', text: `Version ${version.number} created as a draft. Submit it for review when it is ready.` })
    } catch (error) {
      if (!isRefusal(error)) throw error
      reply.flash({ type: 'error', heading: 'No version created', text: error.message })
    }
    return reply.redirect(`/adviceset/${id}/publish/versions`, 303)
  })

  app.post('/adviceset/:id/publish/versions/:versionId/action', { preHandler: requireUser, schema: { params: versionParams } }, async (request, reply) => {
    const id = setIdOf(request)
    const body = (request.body ?? {}) as Body
    const back = safeNext(body.next).startsWith(`/adviceset/${id}/publish`) ? safeNext(body.next) : `/adviceset/${id}/publish/versions`
    const action = (VERSION_ACTIONS as readonly string[]).includes(String(body.action)) ? body.action as VersionAction : null
    if (!action) throw new ValidationError('action', `action: must be one of ${VERSION_ACTIONS.join(', ')}.`)
    try {
      await versionInSet(app, actorOf(request), id, versionIdOf(request))
      const notes = typeof body.notes === 'string' && body.notes.trim() ? body.notes.trim().slice(0, 5000) : undefined
      const version = await transitionVersion(app.deps, actorOf(request), versionIdOf(request), action, notes)
      reply.flash({ type: 'info', text: `${TRANSITIONS[action].label}: version ${version.number} is now ${STATE_LABELS[version.state]!.toLowerCase()}.` })
    } catch (error) {
      if (!isRefusal(error)) throw error
      reply.flash({ type: 'error', heading: `${TRANSITIONS[action].label} refused`, text: error.message })
    }
    return reply.redirect(back, 303)
  })

  app.post('/adviceset/:id/publish/versions/:versionId/restore', { preHandler: requireUser, schema: { params: versionParams } }, async (request, reply) => {
    const id = setIdOf(request)
    try {
      const version = await versionInSet(app, actorOf(request), id, versionIdOf(request))
      const restored = await restoreVersion(app.deps, actorOf(request), version.id)
      reply.flash({ type: 'info', text: `Version ${version.number} restored into the working draft: ${count(restored.rules, 'rule')}, ${count(restored.nodes, 'node')}.` })
      return reply.redirect(`/adviceset/${id}/show`, 303)
    } catch (error) {
      if (!isRefusal(error)) throw error
      reply.flash({ type: 'error', heading: 'Not restored', text: error.message })
      return reply.redirect(`/adviceset/${id}/publish/versions/${versionIdOf(request)}`, 303)
    }
  })

  app.post('/adviceset/:id/publish/assign', idRoute, async (request, reply) => {
    const id = setIdOf(request)
    const body = (request.body ?? {}) as Body
    try {
      const versionId = body.versionId === '' || body.versionId === undefined ? null : itemId(body.versionId, 'versionId')
      await assignVersion(app.deps, actorOf(request), { adviceSetId: id, audienceId: itemId(body.audienceId, 'audienceId'), versionId })
      reply.flash({ type: 'info', text: versionId === null ? 'The audience gets the published version again.' : 'Version assigned to the audience.' })
    } catch (error) {
      if (!isRefusal(error)) throw error
      reply.flash({ type: 'error', heading: 'Not assigned', text: error.message })
    }
    return reply.redirect(`/adviceset/${id}/publish/assign`, 303)
  })

  app.post('/adviceset/:id/publish/audience', idRoute, async (request, reply) => {
    const id = setIdOf(request)
    const body = (request.body ?? {}) as Body
    try {
      const set = await getAdviceSet(app.deps, actorOf(request), id)
      const audience = await createAudience(app.deps, actorOf(request), set.ownerId, { name: body.name, description: body.description })
      reply.flash({ type: 'info', text: `Audience “${audience.name}” created.` })
    } catch (error) {
      if (!isRefusal(error)) throw error
      reply.flash({ type: 'error', heading: 'No audience created', text: error.message })
    }
    return reply.redirect(`/adviceset/${id}/publish/assign`, 303)
  })

  app.post('/adviceset/:id/publish/audience/:audienceId', { preHandler: requireUser, schema: { params: audienceParams } }, async (request, reply) => {
    const id = setIdOf(request)
    const body = (request.body ?? {}) as Body
    try {
      const set = await getAdviceSet(app.deps, actorOf(request), id)
      const audienceId = itemId((request.params as { audienceId: string }).audienceId, 'audienceId')
      const audience = await updateAudience(app.deps, actorOf(request), set.ownerId, audienceId, { name: body.name })
      reply.flash({ type: 'info', text: `Audience renamed to “${audience.name}”.` })
    } catch (error) {
      if (!isRefusal(error)) throw error
      reply.flash({ type: 'error', heading: 'Not renamed', text: error.message })
    }
    return reply.redirect(`/adviceset/${id}/publish/assign`, 303)
  })
}
