// The publishing workflow (DESIGN "Publishing"): which transitions exist, who may take them, and taking them.
//
// Who (DESIGN roles): authors and admins of the set's owner submit; approving, requesting changes, preview, publish
// and unpublish need an admin of the set's owner or a provider admin. Approval needs a different user from the one
// who submitted (four-eyes), unless the owner allows self-approval (approval-policy.ts: a team of one); a version
// approved by its submitter records the setting that allowed it. A version in preview that was approved may be published: preview is where approved
// versions are tried by partners' preview keys before they go live. Approving goes through the review gate
// (review-gate.ts): over failing scenarios or static errors it needs `acknowledgeRisks`, and every approval records
// what the gate found in the version's history.
import type { Db } from '../../db/client.ts'
import { findAdviceSet, type AdviceSetRow } from '../../db/queries/advice-sets.ts'
import { findVersion, findVersionInState, updateVersionState, type VersionRow, type VersionStateChange, type VersionSummaryRow } from '../../db/queries/versions.ts'
import type { VersionState } from '../../db/schema/index.ts'
import { audit } from '../audit/audit.ts'
import type { Actor, Deps } from '../context.ts'
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors.ts'
import { approvalPolicy, selfApprovalRecord, type ApprovalPolicy } from './approval-policy.ts'
import { approvalReview, type ApprovalReview } from './review-gate.ts'
import { canAdministerOwned, canReadSet, canWriteOwned } from '../accounts/visibility.ts'
import { changeVersions, ENTITY_VERSION, summaryOf, versionAuditView } from './versions.ts'

export const VERSION_ACTIONS = ['submit', 'requestChanges', 'approve', 'preview', 'publish', 'unpublish'] as const
export type VersionAction = (typeof VERSION_ACTIONS)[number]

export function isVersionAction(value: unknown): value is VersionAction {
  return (VERSION_ACTIONS as readonly unknown[]).includes(value)
}

interface Transition {
  label: string
  from: VersionState[]
  to: VersionState
  /** Only admins of the set's owner (or provider admins); otherwise authors too. */
  adminOnly: boolean
}

export const TRANSITIONS: Record<VersionAction, Transition> = {
  submit: { label: 'Submit for review', from: ['draft'], to: 'review', adminOnly: false },
  requestChanges: { label: 'Request changes', from: ['review'], to: 'draft', adminOnly: true },
  approve: { label: 'Approve', from: ['review'], to: 'approved', adminOnly: true },
  preview: { label: 'Preview', from: ['approved', 'review'], to: 'preview', adminOnly: true },
  publish: { label: 'Publish', from: ['approved', 'preview'], to: 'published', adminOnly: true },
  unpublish: { label: 'Unpublish', from: ['published'], to: 'unpublished', adminOnly: true },
}

export const FOUR_EYES_MESSAGE = 'Four-eyes rule: a version must be approved by someone other than the person who submitted it.'

type PolicyOfSet = Pick<ApprovalPolicy, 'selfApprovalAllowed'>

/** Why `actor` may not take `action` on `version` now, or null when it may. The pages show the same reasons. */
export function refusal(actor: Actor, set: Pick<AdviceSetRow, 'ownerId'>, version: Pick<VersionRow, 'state' | 'submittedBy' | 'approvedAt'>, action: VersionAction, policy: PolicyOfSet): { status: 403 | 409; message: string } | null {
  const t = TRANSITIONS[action]
  if (!canWriteOwned(actor, set.ownerId)) return { status: 403, message: 'You cannot change the versions of this advice set.' }
  if (t.adminOnly && !canAdministerOwned(actor, set.ownerId)) return { status: 403, message: `${t.label}: only an admin of this advice set’s team or a provider admin may do this.` }
  if (!t.from.includes(version.state)) {
    return { status: 409, message: `${t.label} is not possible for a version in state ${version.state} (only from ${t.from.join(' or ')}).` }
  }
  if (action === 'publish' && version.state === 'preview' && version.approvedAt === null) {
    return { status: 409, message: 'Publish: this preview version has not been approved yet.' }
  }
  if (action === 'approve' && version.submittedBy === actor.userId && !policy.selfApprovalAllowed) return { status: 403, message: FOUR_EYES_MESSAGE }
  return null
}

function bookkeeping(action: VersionAction, actor: Actor, now: Date, version: VersionRow, policy: ApprovalPolicy): VersionStateChange {
  switch (action) {
    case 'submit': return { state: 'review', submittedBy: actor.userId, submittedAt: now }
    case 'requestChanges': return { state: 'draft' }
    case 'approve': return {
      state: 'approved', approvedBy: actor.userId, approvedAt: now,
      selfApproval: version.submittedBy === actor.userId ? selfApprovalRecord(policy) : null,
    }
    case 'preview': return { state: 'preview' }
    case 'publish': return { state: 'published', publishedBy: actor.userId, publishedAt: now }
    case 'unpublish': return { state: 'unpublished', unpublishedAt: now }
  }
}

async function recordTransition(tx: Db, actor: Actor, ownerId: string, before: VersionRow, after: VersionRow, action: string, notes?: string, review?: ApprovalReview & { acknowledgedRisks: boolean }) {
  await audit(tx, actor, {
    ownerId, action: 'update', entityType: ENTITY_VERSION, entityId: after.id,
    before: versionAuditView(before),
    after: {
      ...versionAuditView(after), transition: action, ...(notes ? { comment: notes } : {}), ...(review ? { review } : {}),
      ...(action === 'approve' && after.selfApproval ? { selfApproval: after.selfApproval } : {}),
    },
  })
}

function throwRefusal(refused: { status: 403 | 409; message: string }): never {
  if (refused.status === 403) throw new ForbiddenError(refused.message)
  throw new ConflictError('action', refused.message)
}

/**
 * The review gate of an approval: what it risks, refused (400, field acknowledgeRisks) when there are risks and no
 * confirmation. Checked before the gate runs: who may approve and whether the version is in review, so nobody else
 * learns the gate's findings through the refusal.
 */
async function gateApproval(deps: Deps, actor: Actor, set: AdviceSetRow, versionId: number, acknowledged: boolean, policy: ApprovalPolicy) {
  const version = (await findVersion(deps.db, versionId))!
  const refused = refusal(actor, set, version, 'approve', policy)
  if (refused) throwRefusal(refused)
  const review = await approvalReview(deps, actor, set, version)
  if (review.risky && !acknowledged) {
    throw new ValidationError('acknowledgeRisks', `acknowledgeRisks: this version has ${review.risks}. Approving it anyway needs an explicit confirmation (acknowledgeRisks: true; on the version page, tick “Approve anyway”).`)
  }
  return { ...review, acknowledgedRisks: review.risky }
}

/**
 * The one version of the set in `state` steps aside for another: a published one becomes unpublished; a preview one
 * goes back to approved, or to review when it was previewed before anyone approved it.
 */
async function displace(tx: Db, actor: Actor, ownerId: string, adviceSetId: number, state: 'published' | 'preview', now: Date) {
  const current = await findVersionInState(tx, adviceSetId, state)
  if (!current) return
  const change: VersionStateChange = state === 'published' ? { state: 'unpublished', unpublishedAt: now } : { state: current.approvedAt ? 'approved' : 'review' }
  const moved = await updateVersionState(tx, current.id, change)
  await recordTransition(tx, actor, ownerId, current, moved, state === 'published' ? 'replacedByPublish' : 'replacedByPreview')
}

export async function versionWithSet(db: Db, actor: Actor, versionId: number): Promise<{ version: VersionRow; set: AdviceSetRow }> {
  const version = await findVersion(db, versionId)
  const set = version ? await findAdviceSet(db, version.adviceSetId) : undefined
  if (!version || !set || !canReadSet(actor, set)) throw new NotFoundError('No version with this id')
  return { version, set }
}

/**
 * Takes one transition, audited, with `notes` as the reviewer's comment in the log. Refusals: 403 (who), 409 (state),
 * 400 (an approval over the review gate's risks without `acknowledgeRisks`).
 */
export async function transitionVersion(deps: Deps, actor: Actor, versionId: number, action: VersionAction, notes?: string, opts: { acknowledgeRisks?: boolean } = {}): Promise<VersionSummaryRow> {
  const { set } = await versionWithSet(deps.db, actor, versionId)
  const policy = await approvalPolicy(deps.db, set.ownerId)
  const review = action === 'approve' ? await gateApproval(deps, actor, set, versionId, opts.acknowledgeRisks === true, policy) : undefined
  const updated = await changeVersions(deps.db, set.id, async (tx) => {
    // Read again under the set's lock: another transition may have committed since.
    const version = (await findVersion(tx, versionId))!
    const refused = refusal(actor, set, version, action, policy)
    if (refused) throwRefusal(refused)
    const now = new Date()
    const to = TRANSITIONS[action].to
    if (to === 'published' || to === 'preview') await displace(tx, actor, set.ownerId, set.id, to, now)
    const row = await updateVersionState(tx, version.id, bookkeeping(action, actor, now, version, policy))
    await recordTransition(tx, actor, set.ownerId, version, row, action, notes, review)
    return row
  })
  return summaryOf(updated)
}

/** Unpublishes whatever version of the set is published now. */
export async function unpublishAdviceSet(deps: Deps, actor: Actor, adviceSetId: number): Promise<VersionSummaryRow> {
  const published = await findVersionInState(deps.db, adviceSetId, 'published')
  const set = await findAdviceSet(deps.db, adviceSetId)
  if (!set || !canReadSet(actor, set)) throw new NotFoundError('No advice set with this id')
  if (!published) throw new ConflictError('adviceSetId', 'This advice set has no published version.')
  return transitionVersion(deps, actor, published.id, 'unpublish')
}

/** The actions a user sees for a version: each with the reason it is refused, if it is. */
export function actionsFor(actor: Actor, set: Pick<AdviceSetRow, 'ownerId'>, version: Pick<VersionRow, 'state' | 'submittedBy' | 'approvedAt'>, policy: PolicyOfSet) {
  return VERSION_ACTIONS
    .filter((action) => TRANSITIONS[action].from.includes(version.state))
    .map((action) => ({ action, label: TRANSITIONS[action].label, refused: refusal(actor, set, version, action, policy)?.message ?? null }))
}
