// /api/adviceset publishing routes (SPEC §7): publish (create a version and move it through the workflow), unpublish,
// publish-config (what each environment, audience and key gets; assign audiences) and restore/{versionId}. Also
// starts listening for other instances' version changes with the app. These are signed-in (session) routes: their
// schemas describe them, and being untagged they stay out of the partner OpenAPI document.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { assignVersion, getPublishConfig, keyPublishConfig } from '../../services/publishing/publish-config.ts'
import { listenForVersionChanges } from '../../services/publishing/events.ts'
import { restoreVersion } from '../../services/publishing/restore.ts'
import { transitionVersion, unpublishAdviceSet, VERSION_ACTIONS } from '../../services/publishing/workflow.ts'
import { createVersion } from '../../services/publishing/versions.ts'
import { listVersionsWithActions } from '../../services/publishing/pages.ts'
import { ValidationError } from '../../services/errors.ts'
import { replayNow, startReplayJob } from '../../services/publishing/replay-gate.ts'
import { REPLAY_DEFAULT, REPLAY_MAX } from '../../services/decisions/replay-batch.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { IdString, StringEnum } from '../schemas.ts'
import { itemId } from './ids.ts'

const PUBLISH_ACTIONS = ['create', ...VERSION_ACTIONS] as const
/** A key's sets come this many to a page: an owner may have tens of thousands. */
const KEY_SETS_PAGE = 200
/** Ids may come as numbers or digit strings; itemId() names the field when one is neither. */
const anyId = (description: string) => Type.Unknown({ description })

const PublishBody = Type.Object({
  action: StringEnum(PUBLISH_ACTIONS, { description: 'create makes a draft version of the set as stored now; the others move a version through the workflow.' }),
  adviceSetId: Type.Optional(anyId('For create.')),
  versionId: Type.Optional(anyId('For every action but create.')),
  notes: Type.Optional(Type.String({ maxLength: 5000, description: 'create: the version notes; other actions: a comment kept in the activity log.' })),
  acknowledgeRisks: Type.Optional(Type.Boolean({
    description: 'approve: confirms approving a version whose scenarios fail or whose model has static errors (the review gate); without it such an approval is refused (400).',
  })),
}, { additionalProperties: false })
const SetQuery = Type.Object({ id: Type.String({ maxLength: 20, description: 'Advice set id' }) })

const ReplayBody = Type.Object({
  adviceSetId: anyId('The advice set.'),
  target: Type.Union([Type.Literal('draft'), Type.Integer({ minimum: 1 }), Type.String({ pattern: '^[1-9][0-9]{0,9}$' })], {
    description: 'A version id, or "draft" for the working draft.',
  }),
  count: Type.Optional(Type.Integer({ description: `Recorded answers to replay, newest first (default ${REPLAY_DEFAULT}; as a job, up to ${REPLAY_MAX}).` })),
  background: Type.Optional(Type.Boolean({ description: 'Run as a job (202 with the job); needed beyond the default count.' })),
}, { additionalProperties: false })

export const publishApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps
  let unlisten: (() => Promise<void>) | null = null
  app.addHook('onReady', async () => { unlisten = await listenForVersionChanges(deps.db) })
  app.addHook('onClose', async () => { await unlisten?.() })

  app.get('/publish', {
    schema: {
      summary: 'The versions of an advice set', description: 'Newest first, each with the actions the current user may take and why others are refused.',
      querystring: SetQuery,
    },
  }, async (request) => ({ data: await listVersionsWithActions(deps, actorOf(request), itemId(request.query.id)) }))

  app.post('/publish', {
    schema: {
      summary: 'Create a version or move one through the workflow',
      description: 'Transitions: submit (draft → review), requestChanges (review → draft), approve (review → approved; not by the submitter: 403), ' +
        'preview (approved/review → preview), publish (approved or approved preview → published; the previous published version becomes unpublished), unpublish (published → unpublished). ' +
        'Authors create and submit; the other actions need an admin of the set’s owner. A transition the version’s state does not allow is 409. ' +
        'Approving a version with failing scenarios or static errors needs acknowledgeRisks: true (400 naming the field otherwise); the approval records what the review gate found.',
      body: PublishBody,
    },
  }, async (request, reply) => {
    const body = request.body
    if (body.action === 'create') {
      if (body.adviceSetId === undefined) throw new ValidationError('adviceSetId', 'adviceSetId: is required to create a version.')
      reply.code(201)
      return { data: await createVersion(deps, actorOf(request), { adviceSetId: itemId(body.adviceSetId, 'adviceSetId'), notes: body.notes }) }
    }
    if (body.versionId === undefined) throw new ValidationError('versionId', `versionId: is required to ${body.action} a version.`)
    return { data: await transitionVersion(deps, actorOf(request), itemId(body.versionId, 'versionId'), body.action, body.notes, { acknowledgeRisks: body.acknowledgeRisks === true }) }
  })

  app.post('/replay', {
    schema: {
      summary: 'Replay recorded answers of the published version on another version or the working draft',
      description: 'Counts the outcomes that change, by kind (advice added, advice removed, status or next question changed, new error, error gone), with example decision ids. ' +
        `At most ${REPLAY_DEFAULT} answers while you wait; more (up to ${REPLAY_MAX}) with background: true, as a job with progress that can be cancelled.`,
      body: ReplayBody,
    },
  }, async (request, reply) => {
    const body = request.body
    const adviceSetId = itemId(body.adviceSetId, 'adviceSetId')
    const target = body.target === 'draft' ? 'draft' : itemId(body.target, 'target')
    if (body.background) {
      reply.code(202)
      return { data: await startReplayJob(deps, actorOf(request), adviceSetId, target, body.count) }
    }
    if (body.count !== undefined && (body.count < 1 || body.count > REPLAY_DEFAULT)) {
      throw new ValidationError('count', `count: from 1 to ${REPLAY_DEFAULT} while you wait; send background: true to replay up to ${REPLAY_MAX}.`)
    }
    return { data: await replayNow(deps, actorOf(request), adviceSetId, target, body.count ?? REPLAY_DEFAULT) }
  })

  app.post('/unpublish', {
    schema: {
      summary: 'Stop serving a published version', description: 'Send versionId, or adviceSetId to unpublish whatever version of the set is published.',
      body: Type.Object({
        versionId: Type.Optional(anyId('The version to unpublish')), adviceSetId: Type.Optional(anyId('Or: the advice set whose published version to unpublish')),
      }, { additionalProperties: false }),
    },
  }, async (request) => {
    const body = request.body
    if (body.versionId !== undefined) return { data: await transitionVersion(deps, actorOf(request), itemId(body.versionId, 'versionId'), 'unpublish') }
    if (body.adviceSetId === undefined) throw new ValidationError('versionId', 'versionId: send versionId or adviceSetId.')
    return { data: await unpublishAdviceSet(deps, actorOf(request), itemId(body.adviceSetId, 'adviceSetId')) }
  })

  app.get('/publish-config', {
    schema: {
      summary: 'Which version each environment and audience gets',
      querystring: SetQuery,
    },
  }, async (request) => ({ data: await getPublishConfig(deps, actorOf(request), itemId(request.query.id)) }))

  app.put('/publish-config', {
    schema: {
      summary: 'Assign a version to an audience', description: 'versionId null gives the audience the published version again. The version must have been approved.',
      body: Type.Object({
        adviceSetId: anyId('Advice set id'), audienceId: anyId('Audience id'), versionId: anyId('A version id, or null for the published version'),
      }, { additionalProperties: false }),
    },
  }, async (request) => {
    const body = request.body
    return {
      data: await assignVersion(deps, actorOf(request), {
        adviceSetId: itemId(body.adviceSetId, 'adviceSetId'), audienceId: itemId(body.audienceId, 'audienceId'),
        versionId: body.versionId === null || body.versionId === '' ? null : itemId(body.versionId, 'versionId'),
      }),
    }
  })

  app.get('/publish-config/:keyId', {
    schema: {
      summary: 'What one API key is served of each advice set it may use',
      description: `The key's sets by name, ${KEY_SETS_PAGE} at a time (or \`limit\`, up to 1,000). \`data.next\` is the last set shown when more follow: pass it as \`after\` for the next page; null on the last.`,
      params: Type.Object({ keyId: IdString }),
      querystring: Type.Object({
        after: Type.Optional(IdString), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
      }, { additionalProperties: false }),
    },
  }, async (request) => {
    const { after, limit } = request.query
    return {
      data: await keyPublishConfig(deps, actorOf(request), itemId(request.params.keyId, 'keyId'), {
        ...(after !== undefined ? { afterId: itemId(after, 'after') } : {}), limit: limit ?? KEY_SETS_PAGE,
      }),
    }
  })

  app.post('/restore/:versionId', {
    schema: {
      summary: 'Restore a version into the working draft',
      description: 'The draft’s rules and nodes are replaced (soft-deleted, so recoverable) by the version’s; missing dictionary entries are recreated.',
      params: Type.Object({ versionId: IdString }),
    },
  }, async (request) => ({ data: await restoreVersion(deps, actorOf(request), itemId(request.params.versionId, 'versionId')) }))
}
