// Requests for advice (SPEC §7 adviceset/{ruleSetId}/ai-user-request): questions end users type in the embed
// ("Didn't find what you need? Ask us", when the key allows it) or authors record, per advice set, with status
// open / planned / answered (linked to the rule that answers it). The set's team reads them (provider admins too);
// authors and admins of the team change them. End users' text is never shown outside the set's team.
import { findAdviceSet } from '../../db/queries/advice-sets.ts'
import {
  findAdviceRequest, insertAdviceRequest, listAdviceRequests, updateAdviceRequest, type AdviceRequestRow,
} from '../../db/queries/advice-requests.ts'
import { findRule } from '../../db/queries/rules.ts'
import type { AdviceRequestStatus } from '../../db/schema/index.ts'
import { audit } from '../audit/audit.ts'
import { canCollaborateOnSet, canWriteOwned } from '../accounts/visibility.ts'
import type { Actor, Deps } from '../context.ts'
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.ts'
import { requireOneOf, requireText } from '../validate.ts'
import { setAllowed, type SetRef } from './set-ref.ts'

export const ENTITY_ADVICE_REQUEST = 'ai-user-request'
export const ADVICE_REQUEST_STATUSES: readonly AdviceRequestStatus[] = ['open', 'planned', 'answered']
export const MAX_REQUEST_LENGTH = 2000

/** The set, when the actor is of its team (or a provider admin); 404 otherwise. */
function teamSetOf(deps: Deps, actor: Actor, adviceSet: SetRef) {
  return setAllowed(deps.db, adviceSet, (set) => canCollaborateOnSet(actor, set))
}

async function writableRequest(deps: Deps, actor: Actor, adviceSetId: number, id: number) {
  const set = await teamSetOf(deps, actor, adviceSetId)
  if (!canWriteOwned(actor, set.ownerId)) throw new ForbiddenError('Viewers cannot change requests for advice. Ask an admin of your team to make you an author.')
  const request = await findAdviceRequest(deps.db, id)
  if (!request || request.adviceSetId !== adviceSetId) throw new NotFoundError('No request for advice with this id')
  return { set, request }
}

function snapshot(r: AdviceRequestRow) {
  return { text: r.text, status: r.status, answeredByRuleId: r.answeredByRuleId, source: r.source }
}

export async function listRequestsForSet(deps: Deps, actor: Actor, adviceSet: SetRef, status?: AdviceRequestStatus) {
  const set = await teamSetOf(deps, actor, adviceSet)
  return (await listAdviceRequests(deps.db, set.id, status)).map((r) => ({ ...r.request, ruleName: r.ruleName, createdByName: r.createdByName }))
}

export async function getAdviceRequest(deps: Deps, actor: Actor, adviceSetId: number, id: number) {
  await teamSetOf(deps, actor, adviceSetId)
  const request = await findAdviceRequest(deps.db, id)
  if (!request || request.adviceSetId !== adviceSetId) throw new NotFoundError('No request for advice with this id')
  return request
}

/** An author records a request (e.g. one a client asked by phone). */
export async function recordAdviceRequest(deps: Deps, actor: Actor, adviceSetId: number, input: { text: unknown }) {
  const set = await teamSetOf(deps, actor, adviceSetId)
  if (!canWriteOwned(actor, set.ownerId)) throw new ForbiddenError('Viewers cannot record requests for advice. Ask an admin of your team to make you an author.')
  const text = requireText('text', input.text, 'Request', MAX_REQUEST_LENGTH, 'multiline')
  return deps.db.transaction(async (tx) => {
    const row = await insertAdviceRequest(tx, { adviceSetId, text, source: 'author', apiKeyId: null, createdBy: actor.userId })
    await audit(tx, actor, { ownerId: set.ownerId, action: 'create', entityType: ENTITY_ADVICE_REQUEST, entityId: row.id, after: snapshot(row) })
    return row
  })
}

/** From the embed, through a key the route already checked for this set; audited as the server's. */
export async function submitEmbedRequest(deps: Deps, p: { adviceSetId: number; apiKeyId: number; text: unknown }) {
  const text = requireText('text', p.text, 'Your question', MAX_REQUEST_LENGTH, 'multiline')
  const set = await findAdviceSet(deps.db, p.adviceSetId)
  if (!set) throw new NotFoundError('No advice set with this id')
  return deps.db.transaction(async (tx) => {
    const row = await insertAdviceRequest(tx, { adviceSetId: p.adviceSetId, text, source: 'embed', apiKeyId: p.apiKeyId, createdBy: null })
    await audit(tx, null, { ownerId: set.ownerId, action: 'create', entityType: ENTITY_ADVICE_REQUEST, entityId: row.id, after: { ...snapshot(row), apiKeyId: p.apiKeyId } })
    return row
  })
}

export interface AdviceRequestChange { status?: unknown; answeredByRuleId?: unknown; text?: unknown }

/** Status and the answering rule (which must be a live rule of this set; "answered" needs one). */
export async function changeAdviceRequest(deps: Deps, actor: Actor, adviceSetId: number, id: number, input: AdviceRequestChange) {
  const { set, request } = await writableRequest(deps, actor, adviceSetId, id)
  const status = input.status === undefined ? request.status : requireOneOf('status', input.status, ADVICE_REQUEST_STATUSES, 'Status')
  let answeredByRuleId = request.answeredByRuleId
  if (input.answeredByRuleId !== undefined) {
    if (input.answeredByRuleId === null || input.answeredByRuleId === '') answeredByRuleId = null
    else {
      const ruleId = Number(input.answeredByRuleId)
      const rule = Number.isSafeInteger(ruleId) && ruleId > 0 ? await findRule(deps.db, ruleId) : undefined
      if (!rule || rule.adviceSetId !== adviceSetId) throw new ValidationError('answeredByRuleId', 'Answered by must be a rule of this advice set.')
      answeredByRuleId = ruleId
    }
  }
  if (status === 'answered' && answeredByRuleId === null) throw new ValidationError('answeredByRuleId', 'Choose the rule that answers this request.')
  if (status !== 'answered') answeredByRuleId = null
  const text = input.text === undefined ? request.text : requireText('text', input.text, 'Request', MAX_REQUEST_LENGTH, 'multiline')
  return deps.db.transaction(async (tx) => {
    const row = await updateAdviceRequest(tx, id, { status, answeredByRuleId, text })
    await audit(tx, actor, { ownerId: set.ownerId, action: 'update', entityType: ENTITY_ADVICE_REQUEST, entityId: id, before: snapshot(request), after: snapshot(row) })
    return row
  })
}

export async function deleteAdviceRequest(deps: Deps, actor: Actor, adviceSetId: number, id: number): Promise<void> {
  const { set, request } = await writableRequest(deps, actor, adviceSetId, id)
  await deps.db.transaction(async (tx) => {
    await updateAdviceRequest(tx, id, { deletedAt: new Date() })
    await audit(tx, actor, { ownerId: set.ownerId, action: 'delete', entityType: ENTITY_ADVICE_REQUEST, entityId: id, before: snapshot(request) })
  })
}
