// Who may approve a version (DESIGN "Publishing"): four-eyes by default, a different admin from the submitter. A team
// of one has nobody else, so an admin of an owner (or a provider admin) may allow self-approval for that owner. The
// setting is audited, and each version approved by its submitter records it as it was then (workflow.ts).
import type { Db } from '../../db/client.ts'
import { countOtherAdmins, findOwner, updateOwnerSelfApproval, type OwnerRow } from '../../db/queries/users.ts'
import { userNames } from '../../db/queries/versions.ts'
import type { SelfApproval } from '../../db/schema/index.ts'
import { canAdministerOwned } from '../accounts/visibility.ts'
import { audit } from '../audit/audit.ts'
import { isProviderAdmin, type Actor, type Deps } from '../context.ts'
import { ForbiddenError, NotFoundError } from '../errors.ts'

export const ENTITY_OWNER = 'owner'

export interface ApprovalPolicy {
  ownerId: string
  ownerName: string
  selfApprovalAllowed: boolean
  selfApprovalChangedBy: number | null
  selfApprovalChangedByName: string | null
  selfApprovalChangedAt: Date | null
}

async function policyOf(db: Db, owner: OwnerRow): Promise<ApprovalPolicy> {
  const by = owner.selfApprovalChangedBy
  const names = by === null ? new Map<number, string>() : await userNames(db, [by])
  return {
    ownerId: owner.id, ownerName: owner.name, selfApprovalAllowed: owner.selfApprovalAllowed,
    selfApprovalChangedBy: by, selfApprovalChangedByName: by === null ? null : names.get(by) ?? null, selfApprovalChangedAt: owner.selfApprovalChangedAt,
  }
}

/** The approval policy of a set's owner; the caller has checked that the actor may see the set. */
export async function approvalPolicy(db: Db, ownerId: string): Promise<ApprovalPolicy> {
  const owner = await findOwner(db, ownerId)
  if (!owner) throw new NotFoundError('No owner with this id')
  return policyOf(db, owner)
}

/** Members of the owner and provider admins read it; others learn nothing of the owner (404). */
export async function readApprovalPolicy(deps: Deps, actor: Actor, ownerId: string): Promise<ApprovalPolicy> {
  if (actor.ownerId !== ownerId && !isProviderAdmin(actor)) throw new NotFoundError('No owner with this id')
  return approvalPolicy(deps.db, ownerId)
}

export async function setSelfApproval(deps: Deps, actor: Actor, ownerId: string, allowed: boolean): Promise<ApprovalPolicy> {
  const before = await readApprovalPolicy(deps, actor, ownerId)
  if (!canAdministerOwned(actor, ownerId)) throw new ForbiddenError('Only an admin of this team or a provider admin can allow self-approval.')
  if (allowed === before.selfApprovalAllowed) return before
  const owner = await deps.db.transaction(async (tx) => {
    const row = await updateOwnerSelfApproval(tx, ownerId, { selfApprovalAllowed: allowed, selfApprovalChangedBy: actor.userId, selfApprovalChangedAt: new Date() })
    await audit(tx, actor, {
      ownerId, action: 'update', entityType: ENTITY_OWNER, entityId: ownerId,
      before: { id: ownerId, name: before.ownerName, selfApprovalAllowed: before.selfApprovalAllowed },
      after: { id: ownerId, name: row.name, selfApprovalAllowed: row.selfApprovalAllowed },
    })
    return row
  })
  return policyOf(deps.db, owner)
}

/** What a version approved by its submitter keeps of the setting that allowed it. */
export function selfApprovalRecord(policy: ApprovalPolicy): SelfApproval {
  return {
    allowedBy: policy.selfApprovalChangedBy, allowedByName: policy.selfApprovalChangedByName ?? 'an admin',
    allowedAt: (policy.selfApprovalChangedAt ?? new Date()).toISOString(),
  }
}

/** Whether anyone but the submitter (one of the owner's admins) could approve a version it submitted. */
export async function hasOtherApprover(db: Db, ownerId: string, submittedBy: number | null): Promise<boolean> {
  return (await countOtherAdmins(db, ownerId, submittedBy)) > 0
}
