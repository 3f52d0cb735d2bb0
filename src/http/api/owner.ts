// /api/owner (SPEC §7 owner {id}, {id}/audience, {id}/audience/{audienceId}): an owner, its settings and its audiences;
// {id}/decisions: how its Advice API answers are recorded (issue 26).
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { createAudience, deleteAudience, getAudience, getOwner, listAudiences, updateAudience } from '../../services/publishing/audiences.ts'
import { setSelfApproval } from '../../services/publishing/approval-policy.ts'
import { DECISION_MODES, readDecisionRecordSettings, setDecisionRecordSettings } from '../../services/decisions/owner-settings.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { IdString, StringEnum } from '../schemas.ts'
import { itemId } from './ids.ts'

const OwnerId = Type.String({ minLength: 1, maxLength: 64 })
const OwnerParams = Type.Object({ id: OwnerId })
const AudienceParams = Type.Object({ id: OwnerId, audienceId: IdString })
const audienceFields = { name: Type.Optional(Type.String()), description: Type.Optional(Type.String()) }

export const ownerApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  const deps = app.deps

  app.get('/:id', { schema: { params: OwnerParams } }, async (request) => ({ data: await getOwner(deps, actorOf(request), request.params.id) }))
  /** The owner's settings: whether its admins may approve versions they submitted (self-approval). */
  app.patch('/:id', {
    schema: { params: OwnerParams, body: Type.Object({ selfApprovalAllowed: Type.Boolean() }, { additionalProperties: false }) },
  }, async (request) => ({ data: await setSelfApproval(deps, actorOf(request), request.params.id, request.body.selfApprovalAllowed) }))
  /** Decision records: off, best effort or durable, the days they are kept, and what the best-effort buffer dropped. */
  app.get('/:id/decisions', { schema: { params: OwnerParams } }, async (request) => ({ data: await readDecisionRecordSettings(deps, actorOf(request), request.params.id) }))
  app.patch('/:id/decisions', {
    schema: {
      params: OwnerParams,
      // The range of days is the service's to check, so the refusal names the field and the bounds as the team page's does.
      body: Type.Object({ decisionMode: Type.Optional(StringEnum([...DECISION_MODES])), decisionRetentionDays: Type.Optional(Type.Integer()) }, { additionalProperties: false }),
    },
  }, async (request) => {
    const saved = await setDecisionRecordSettings(deps, actorOf(request), request.params.id, request.body)
    app.partner.recorder.settings.forgetOwner(request.params.id)
    return { data: saved }
  })
  app.get('/:id/audience', { schema: { params: OwnerParams } }, async (request) => ({ data: await listAudiences(deps, actorOf(request), request.params.id) }))
  app.post('/:id/audience', {
    schema: { params: OwnerParams, body: Type.Object({ ...audienceFields, name: Type.String() }, { additionalProperties: false }) },
  }, async (request, reply) => {
    reply.code(201)
    return { data: await createAudience(deps, actorOf(request), request.params.id, request.body) }
  })
  app.get('/:id/audience/:audienceId', { schema: { params: AudienceParams } }, async (request) => {
    return { data: await getAudience(deps, actorOf(request), request.params.id, itemId(request.params.audienceId, 'audienceId')) }
  })
  app.patch('/:id/audience/:audienceId', { schema: { params: AudienceParams, body: Type.Object(audienceFields, { additionalProperties: false }) } }, async (request) => {
    return { data: await updateAudience(deps, actorOf(request), request.params.id, itemId(request.params.audienceId, 'audienceId'), request.body) }
  })
  app.delete('/:id/audience/:audienceId', { schema: { params: AudienceParams } }, async (request) => {
    await deleteAudience(deps, actorOf(request), request.params.id, itemId(request.params.audienceId, 'audienceId'))
    return { data: { deleted: true } }
  })
}
