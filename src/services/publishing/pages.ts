// What the publisher pages and GET /api/adviceset/publish show: a set's versions with who did what and the actions
// the current user may take (refused ones with the reason), and one version with its content, its changes against
// the published version and its state history.
import type { AdviceSetRow } from '../../db/queries/advice-sets.ts'
import { findVersionInState, listVersions, userNames, versionHistory, type VersionSummaryRow } from '../../db/queries/versions.ts'
import type { Actor, Deps } from '../context.ts'
import { NotFoundError } from '../errors.ts'
import { canWriteOwned } from '../accounts/visibility.ts'
import { contentSummary, diffSnapshots } from './diff.ts'
import type { VersionSnapshot } from './snapshot.ts'
import { approvalPolicy, hasOtherApprover, type ApprovalPolicy } from './approval-policy.ts'
import { actionsFor, versionWithSet } from './workflow.ts'
import { teamSet } from './versions.ts'

type VersionListEntry = VersionSummaryRow & {
  createdByName: string | null; submittedByName: string | null; approvedByName: string | null; publishedByName: string | null
  actions: ReturnType<typeof actionsFor>
}

async function withNames(deps: Deps, actor: Actor, set: AdviceSetRow, versions: VersionSummaryRow[], policy: ApprovalPolicy): Promise<VersionListEntry[]> {
  const ids = versions.flatMap((v) => [v.createdBy, v.submittedBy, v.approvedBy, v.publishedBy]).filter((id) => id !== null)
  const names = await userNames(deps.db, [...new Set(ids)])
  const name = (id: number | null) => (id === null ? null : names.get(id) ?? null)
  return versions.map((v) => ({
    ...v, createdByName: name(v.createdBy), submittedByName: name(v.submittedBy), approvedByName: name(v.approvedBy), publishedByName: name(v.publishedBy),
    actions: actionsFor(actor, set, v, policy),
  }))
}

export async function listVersionsWithActions(deps: Deps, actor: Actor, adviceSetId: number) {
  const set = await teamSet(deps.db, actor, adviceSetId)
  return {
    adviceSet: { id: set.id, name: set.name, ownerId: set.ownerId },
    canCreate: canWriteOwned(actor, set.ownerId),
    versions: await withNames(deps, actor, set, await listVersions(deps.db, set.id), await approvalPolicy(deps.db, set.ownerId)),
  }
}

/**
 * Who may approve, as the version page says it: the setting that allows its submitter to, or, when the team has no
 * admin but the submitter and self-approval is off, that nobody else can (and how to get an approver).
 */
async function approvalView(deps: Deps, version: VersionSummaryRow, policy: ApprovalPolicy) {
  const waiting = version.state === 'review'
  return {
    ownerName: policy.ownerName,
    selfApprovalAllowed: policy.selfApprovalAllowed,
    selfApproval: version.selfApproval,
    noOtherApprover: waiting && !policy.selfApprovalAllowed && !(await hasOtherApprover(deps.db, policy.ownerId, version.submittedBy)),
  }
}

export async function versionDetail(deps: Deps, actor: Actor, adviceSetId: number, versionId: number) {
  const set = await teamSet(deps.db, actor, adviceSetId)
  const { version } = await versionWithSet(deps.db, actor, versionId)
  if (version.adviceSetId !== set.id) throw new NotFoundError('No version with this id in this advice set')
  const snapshot = version.snapshot as VersionSnapshot
  const published = await findVersionInState(deps.db, set.id, 'published')
  const { snapshot: _snapshot, ...summary } = version
  const policy = await approvalPolicy(deps.db, set.ownerId)
  const [entry] = await withNames(deps, actor, set, [summary], policy)
  return {
    set, version: entry!, content: contentSummary(snapshot), approval: await approvalView(deps, version, policy),
    published: published ? { id: published.id, number: published.number } : null,
    changes: published?.id === version.id ? null : diffSnapshots(published ? published.snapshot as VersionSnapshot : null, snapshot),
    history: await versionHistory(deps.db, version.id),
    canRestore: canWriteOwned(actor, set.ownerId),
  }
}
