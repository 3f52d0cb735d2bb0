// An owner's decision-record settings (issue 26), set by its admins (or a provider admin): whether and how the Advice
// API records its answers (off, best effort, durable) and how many days records are kept. Members read them, with
// the count of records the best-effort buffer had to drop. Every change is in the activity log.
import { findOwnerDecisionRecords, updateOwnerDecisionRecords, type OwnerDecisionRecordsRow } from '../../db/queries/decisions.ts'
import { DECISION_MODES, decisionModeOf, type DecisionMode } from '../../db/schema/index.ts'
import { canAdministerOwned } from '../accounts/visibility.ts'
import { audit } from '../audit/audit.ts'
import { isProviderAdmin, type Actor, type Deps } from '../context.ts'
import { ENTITY_OWNER } from '../publishing/approval-policy.ts'
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.ts'

/** The modes an owner may choose (the schema's list, for routes, which do not read db/schema). */
export { DECISION_MODES }

/** How the modes read on the team page and in the activity log. */
export const DECISION_MODE_LABELS: Readonly<Record<DecisionMode, string>> = { off: 'Off', best_effort: 'Best effort', durable: 'Durable' }

export const MIN_RETENTION_DAYS = 1
export const MAX_RETENTION_DAYS = 3650

export interface DecisionRecordSettings {
  ownerId: string
  ownerName: string
  decisionMode: DecisionMode
  decisionRetentionDays: number
  /** Records the best-effort buffer could not hold, ever, and when it last had to drop one. */
  decisionsDropped: number
  decisionsDroppedAt: Date | null
}

function settingsOf(row: OwnerDecisionRecordsRow): DecisionRecordSettings {
  return {
    ownerId: row.id, ownerName: row.name, decisionMode: decisionModeOf(row.mode),
    decisionRetentionDays: row.retentionDays, decisionsDropped: row.dropped, decisionsDroppedAt: row.droppedAt,
  }
}

/** Members of the owner and provider admins read them; others learn nothing of the owner (404). */
export async function readDecisionRecordSettings(deps: Deps, actor: Actor, ownerId: string): Promise<DecisionRecordSettings> {
  const row = actor.ownerId === ownerId || isProviderAdmin(actor) ? await findOwnerDecisionRecords(deps.db, ownerId) : undefined
  if (!row) throw new NotFoundError('No owner with this id')
  return settingsOf(row)
}

function requireMode(raw: unknown): DecisionMode {
  if (typeof raw === 'string' && (DECISION_MODES as readonly string[]).includes(raw)) return raw as DecisionMode
  throw new ValidationError('decisionMode', `decisionMode: one of ${DECISION_MODES.join(', ')}.`)
}

/** A whole number of days, as a number (the API) or as the digits a form sends. */
function requireRetentionDays(raw: unknown): number {
  const days = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d{1,9}\s*$/.test(raw) ? Number(raw) : Number.NaN
  if (!Number.isInteger(days) || days < MIN_RETENTION_DAYS || days > MAX_RETENTION_DAYS) {
    throw new ValidationError('decisionRetentionDays', `decisionRetentionDays: keep records for a whole number of days from ${MIN_RETENTION_DAYS} to ${MAX_RETENTION_DAYS}.`)
  }
  return days
}

export interface DecisionRecordSettingsInput { decisionMode?: unknown; decisionRetentionDays?: unknown }

export async function setDecisionRecordSettings(deps: Deps, actor: Actor, ownerId: string, input: DecisionRecordSettingsInput): Promise<DecisionRecordSettings> {
  const before = await readDecisionRecordSettings(deps, actor, ownerId)
  if (!canAdministerOwned(actor, ownerId)) throw new ForbiddenError('Only an admin of this team or a provider admin can change how decisions are recorded.')
  const next = {
    decisionMode: input.decisionMode === undefined ? before.decisionMode : requireMode(input.decisionMode),
    decisionRetentionDays: input.decisionRetentionDays === undefined ? before.decisionRetentionDays : requireRetentionDays(input.decisionRetentionDays),
  }
  if (next.decisionMode === before.decisionMode && next.decisionRetentionDays === before.decisionRetentionDays) return before
  const row = await deps.db.transaction(async (tx) => {
    const updated = await updateOwnerDecisionRecords(tx, ownerId, next)
    await audit(tx, actor, {
      ownerId, action: 'update', entityType: ENTITY_OWNER, entityId: ownerId,
      before: { id: ownerId, name: before.ownerName, decisionMode: before.decisionMode, decisionRetentionDays: before.decisionRetentionDays },
      after: { id: ownerId, name: updated.name, decisionMode: updated.mode, decisionRetentionDays: updated.retentionDays },
    })
    return updated
  })
  return settingsOf(row)
}
