// Subject rights over decision records (issue 26): an owner's admin (or a provider admin, for any owner) finds every
// record whose personal variable held a given value (access), downloads them (export), and deletes them (erasure).
// Records keep personal values only as keyed hashes, so the typed value is hashed the way the recorder hashed it and
// matched against them. Each action is in the owner's activity log with its count — never with the value.
//
// Matching the typed value: the recorder hashed the value as the engine used it, i.e. after the variable's data type
// coerced the answer. The value typed here is a text, so it is coerced the same way (the engine's coerceInput with the
// data type and options of each personal entry of that name), and also tried as typed, as a number and as true/false
// when it reads as one. A variable whose data type changed since, or that was answered untyped, still matches.
import type { Db } from '../../db/client.ts'
import {
  adviceSetNamesOf, countDecisionsByPersonalHash, deleteDecisionsByPersonalHash, findDecisionsByPersonalHash, listPersonalVariables,
  type DecisionRecordRow, type PersonalVariableRow,
} from '../../db/queries/decisions.ts'
import { findOwner } from '../../db/queries/users.ts'
import { ENTITY_TYPES, coerceInput, isDataType } from '../../engine/index.ts'
import { canAdministerOwned } from '../accounts/visibility.ts'
import { audit } from '../audit/audit.ts'
import { isProviderAdmin, type Actor, type Deps } from '../context.ts'
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.ts'
import { personalHash } from './build.ts'
import { canonicalJson, canonicalValue, type CanonicalValue } from './canonical.ts'

/** The activity log's entity type for these actions; its id is the variable's name. */
export const ENTITY_DECISION_SUBJECT = 'decision-subject'
export const SUBJECT_REQUESTS = ['access', 'export', 'erase'] as const
export type SubjectRequest = (typeof SUBJECT_REQUESTS)[number]

/** Records a find lists at most (the count is of all of them). */
export const SUBJECT_LIST_LIMIT = 500
/** Records an export holds at most: one person's answers, not a table dump. */
export const SUBJECT_EXPORT_LIMIT = 50_000
const VALUE_MAX = 1_000

export interface SubjectOwner { ownerId: string; ownerName: string }

/** The owner whose records are searched: one's own, or any for a provider admin; only its admins may. */
async function subjectOwner(db: Db, actor: Actor, requestedOwnerId: string | undefined): Promise<SubjectOwner> {
  const ownerId = requestedOwnerId || actor.ownerId
  if (ownerId !== actor.ownerId && !isProviderAdmin(actor)) throw new NotFoundError('No owner with this id')
  if (!canAdministerOwned(actor, ownerId)) throw new ForbiddenError('Only an admin of this team or a provider admin can find, export or erase the decision records of a person.')
  const owner = await findOwner(db, ownerId)
  if (!owner) throw new NotFoundError('No owner with this id')
  return { ownerId, ownerName: owner.name }
}

/** The personal variables of an owner by name (a name kept by several sets has each one's data type). */
async function personalVariablesByName(db: Db, ownerId: string): Promise<Map<string, PersonalVariableRow[]>> {
  const byName = new Map<string, PersonalVariableRow[]>()
  for (const row of await listPersonalVariables(db, ownerId, ENTITY_TYPES.variable.id)) byName.set(row.name, [...(byName.get(row.name) ?? []), row])
  return byName
}

export interface SubjectForm extends SubjectOwner { variables: string[] }

/** What the subject page offers: the owner's personal variables. */
export async function subjectForm(deps: Deps, actor: Actor, requestedOwnerId?: string): Promise<SubjectForm> {
  const owner = await subjectOwner(deps.db, actor, requestedOwnerId)
  return { ...owner, variables: [...(await personalVariablesByName(deps.db, owner.ownerId)).keys()] }
}

/** The values the typed text may have been recorded as (see the top of this file), each once. */
export function candidateValues(entries: PersonalVariableRow[], typed: string): CanonicalValue[] {
  const found = new Map<string, CanonicalValue>()
  const add = (value: unknown) => {
    if (value === null || value === undefined) return
    const canonical = canonicalValue(value)
    found.set(canonicalJson(canonical), canonical)
  }
  for (const entry of entries) {
    if (!isDataType(entry.dataType)) continue
    const coerced = coerceInput(entry.dataType, typed, { options: entry.validOptions })
    if (coerced.ok) add(coerced.value)
  }
  add(typed)
  if (/^-?\d+(\.\d+)?$/.test(typed)) add(Number(typed))
  if (/^(true|false)$/i.test(typed)) add(typed.toLowerCase() === 'true')
  return [...found.values()]
}

export interface SubjectQuery { ownerId?: string | undefined; variable: unknown; value: unknown }
interface SubjectMatch extends SubjectOwner { variable: string; hashes: string[] }

async function subjectMatch(deps: Deps, actor: Actor, query: SubjectQuery): Promise<SubjectMatch> {
  const owner = await subjectOwner(deps.db, actor, query.ownerId)
  const variables = await personalVariablesByName(deps.db, owner.ownerId)
  const variable = typeof query.variable === 'string' ? query.variable.trim() : ''
  const entries = variables.get(variable)
  if (!entries) throw new ValidationError('variable', 'variable: choose one of the team’s personal variables.')
  const value = typeof query.value === 'string' ? query.value.trim() : ''
  if (!value) throw new ValidationError('value', 'value: type the value to look for.')
  if (value.length > VALUE_MAX) throw new ValidationError('value', `value: at most ${VALUE_MAX} characters.`)
  const hashes = candidateValues(entries, value).map((candidate) => personalHash(deps.config.secretKey, variable, candidate))
  return { ...owner, variable, hashes }
}

/** What the log keeps of a request: which, on which variable, how many records (never the value looked for). */
function subjectEntry(match: SubjectMatch, request: SubjectRequest, count: number) {
  return {
    ownerId: match.ownerId, action: request === 'erase' ? 'delete' as const : 'create' as const, entityType: ENTITY_DECISION_SUBJECT, entityId: match.variable,
    after: { request, variable: match.variable, count },
  }
}

async function auditRead(deps: Deps, actor: Actor, match: SubjectMatch, request: 'access' | 'export', count: number): Promise<void> {
  await deps.db.transaction(async (tx) => { await audit(tx, actor, subjectEntry(match, request, count)) })
}

export interface SubjectRecord {
  id: string; receivedAt: Date; adviceSetId: number; adviceSetName: string | null; versionId: number; versionNumber: number
  environment: string; endpoint: string; contentType: string; status: string; hasErrors: boolean
}

async function listed(db: Db, rows: DecisionRecordRow[]): Promise<SubjectRecord[]> {
  const names = await adviceSetNamesOf(db, [...new Set(rows.map((row) => row.adviceSetId))])
  return rows.map((row) => ({
    id: row.id, receivedAt: row.receivedAt, adviceSetId: row.adviceSetId, adviceSetName: names.get(row.adviceSetId) ?? null, versionId: row.versionId,
    versionNumber: row.versionNumber, environment: row.environment, endpoint: row.endpoint, contentType: row.contentType, status: row.status, hasErrors: row.hasErrors,
  }))
}

export interface SubjectFound extends SubjectOwner { variable: string; count: number; records: SubjectRecord[]; limit: number }

/** Access: the records whose variable held the value (newest first, up to SUBJECT_LIST_LIMIT) and how many there are. */
export async function findSubjectDecisions(deps: Deps, actor: Actor, query: SubjectQuery): Promise<SubjectFound> {
  const match = await subjectMatch(deps, actor, query)
  const [count, rows] = await Promise.all([
    countDecisionsByPersonalHash(deps.db, match.ownerId, match.hashes),
    findDecisionsByPersonalHash(deps.db, match.ownerId, match.hashes, SUBJECT_LIST_LIMIT),
  ])
  await auditRead(deps, actor, match, 'access', count)
  return { ownerId: match.ownerId, ownerName: match.ownerName, variable: match.variable, count, records: await listed(deps.db, rows), limit: SUBJECT_LIST_LIMIT }
}

/** A record as the person gets it: everything but the keyed hashes (personal inputs read {"personal": true}). */
function exported(row: DecisionRecordRow, setName: string | null) {
  return {
    id: row.id, receivedAt: row.receivedAt.toISOString(), adviceSetId: row.adviceSetId, adviceSetName: setName, versionId: row.versionId,
    versionNumber: row.versionNumber, environment: row.environment, endpoint: row.endpoint, contentType: row.contentType, inputs: row.inputs,
    status: row.status, adviceNodeIds: row.adviceNodeIds, hasErrors: row.hasErrors, outcome: row.outcome, engineMicros: row.engineMicros,
  }
}

export type ExportedRecord = ReturnType<typeof exported>
export interface SubjectExport { fileName: string; document: { owner: string; variable: string; exportedAt: string; count: number; records: ExportedRecord[] } }

/** Export: the matching records as one JSON document to download. */
export async function exportSubjectDecisions(deps: Deps, actor: Actor, query: SubjectQuery): Promise<SubjectExport> {
  const match = await subjectMatch(deps, actor, query)
  const rows = await findDecisionsByPersonalHash(deps.db, match.ownerId, match.hashes, SUBJECT_EXPORT_LIMIT)
  const names = await adviceSetNamesOf(deps.db, [...new Set(rows.map((row) => row.adviceSetId))])
  await auditRead(deps, actor, match, 'export', rows.length)
  const exportedAt = new Date()
  return {
    fileName: `decision-records-${match.variable.replace(/[^A-Za-z0-9_-]/g, '_')}-${exportedAt.toISOString().slice(0, 10)}.json`,
    document: { owner: match.ownerName, variable: match.variable, exportedAt: exportedAt.toISOString(), count: rows.length, records: rows.map((row) => exported(row, names.get(row.adviceSetId) ?? null)) },
  }
}

/** Erasure: deletes every matching record; says how many went. */
export async function eraseSubjectDecisions(deps: Deps, actor: Actor, query: SubjectQuery): Promise<SubjectOwner & { variable: string; erased: number }> {
  const match = await subjectMatch(deps, actor, query)
  const erased = await deps.db.transaction(async (tx) => {
    const gone = await deleteDecisionsByPersonalHash(tx, match.ownerId, match.hashes)
    await audit(tx, actor, subjectEntry(match, 'erase', gone))
    return gone
  })
  return { ownerId: match.ownerId, ownerName: match.ownerName, variable: match.variable, erased }
}
