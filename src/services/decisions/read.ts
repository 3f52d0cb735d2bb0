// Reading decision records back (issue 26): a set's records for its own team and provider admins (the decisions pages
// and GET /api/adviceset/{id}/decisions), one record with what it means in words, and a partner's read-back of a
// record its own key caused (GET /api/decision/{id}). Node ids are put into words from the version the record names.
import type { Db } from '../../db/client.ts'
import type { AdviceSetRow } from '../../db/queries/advice-sets.ts'
import { apiKeyChoices, apiKeyNamesByIds, type ApiKeyName } from '../../db/queries/api-keys.ts'
import { findDecisionRecord, listDecisionRecords, type DecisionRecordRow } from '../../db/queries/decisions.ts'
import { listVersions } from '../../db/queries/versions.ts'
import type { AuthenticatedKey } from '../delivery/api-keys.ts'
import type { Actor, Deps } from '../context.ts'
import { NotFoundError, ValidationError } from '../errors.ts'
import { teamSet } from '../publishing/versions.ts'
import { madeAtOf } from './build.ts'
import { recordPageExtras } from './record-page.ts'
import type { ReplayTarget } from './replay.ts'
import { cursorOf, parseDecisionQuery, type DecisionQuery, type ParsedDecisionQuery } from './filters.ts'
import { adviceNodesOf, labelsOfVersions, versionLabels, type VersionLabels } from './labels.ts'

export const DECISIONS_PAGE = 50

/** A node of a recorded path, in words: a condition's expression. */
export interface PathStep { nodeId: string; expression: string }

/** The advice items of a record, headlines resolved: Headline_Custom's when the run set one, else the version's. */
function itemsOf(row: DecisionRecordRow, labels: VersionLabels) {
  const steps = (path: string[]): PathStep[] => path.map((nodeId) => ({ nodeId, expression: labels.get(nodeId)?.expression ?? `(node ${nodeId})` }))
  return {
    items: row.outcome.items.map((item) => ({
      nodeId: item.nodeId, group: item.group,
      headline: item.customHeadline ?? labels.get(item.nodeId)?.headline ?? `(node ${item.nodeId})`,
      path: steps(item.path),
    })),
    question: row.outcome.question ? {
      nodeId: row.outcome.question.nodeId, variable: row.outcome.question.variable,
      question: labels.get(row.outcome.question.nodeId)?.question ?? '', path: steps(row.outcome.question.path),
    } : null,
  }
}

/** A record as the API gives it: everything but the personal values' hashes (nor the owner, which the reader knows). */
function recordJson(row: DecisionRecordRow, labels: VersionLabels) {
  const { items, question } = itemsOf(row, labels)
  return {
    id: row.id, receivedAt: row.receivedAt.toISOString(), adviceSetId: row.adviceSetId, versionId: row.versionId, versionNumber: row.versionNumber,
    apiKeyId: row.apiKeyId, environment: row.environment, endpoint: row.endpoint, contentType: row.contentType,
    inputs: row.inputs, status: row.status, hasErrors: row.hasErrors,
    outcome: { items, question, errors: row.outcome.errors }, engineMicros: row.engineMicros,
  }
}

export type DecisionJson = ReturnType<typeof recordJson>

/** The keys the filter offers: an owner can have thousands, so the most recently used, and the one chosen. */
const KEY_CHOICES = 100

/** The keys offered, and how many of them are the most recently used when the owner has more (else null). */
async function keyChoicesOf(db: Db, ownerId: string, chosen: number | undefined): Promise<{ keys: ApiKeyName[]; recentKeysOnly: number | null }> {
  const listed = await apiKeyChoices(db, ownerId, KEY_CHOICES + 1)
  const keys = listed.slice(0, KEY_CHOICES)
  if (chosen !== undefined && !keys.some((k) => k.id === chosen)) keys.push(...await apiKeyNamesByIds(db, ownerId, [chosen]))
  return { keys, recentKeysOnly: listed.length > KEY_CHOICES ? KEY_CHOICES : null }
}

async function pageOf(db: Db, set: AdviceSetRow, filter: ParsedDecisionQuery) {
  const rows = await listDecisionRecords(db, { ...filter, adviceSetId: set.id }, DECISIONS_PAGE + 1)
  const page = rows.slice(0, DECISIONS_PAGE)
  const labels = await labelsOfVersions(db, page.map((row) => row.versionId))
  return { page, labels, next: rows.length > DECISIONS_PAGE ? cursorOf(page[page.length - 1]!) : null }
}

/** GET /api/adviceset/{id}/decisions: a page of the set's records, newest first, and the cursor of the next one. */
export async function listDecisionsJson(deps: Deps, actor: Actor, adviceSetId: number, query: DecisionQuery) {
  const set = await teamSet(deps.db, actor, adviceSetId)
  const { page, labels, next } = await pageOf(deps.db, set, parseDecisionQuery(query))
  return { items: page.map((row) => recordJson(row, labels.get(row.versionId)!)), next }
}

/**
 * The decisions page: a page of records as table rows, and what the filter form offers (the owner's keys, the set's
 * versions, the advice items of its published version, else its newest).
 */
export async function decisionsPage(deps: Deps, actor: Actor, adviceSetId: number, query: DecisionQuery) {
  const db = deps.db
  const set = await teamSet(db, actor, adviceSetId)
  // A bad filter value is shown beside its field, with no records: never a list that silently ignores it.
  let filter: ParsedDecisionQuery | null = null
  let problem: { field: string; message: string } | null = null
  try {
    filter = parseDecisionQuery(query)
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error
    problem = { field: error.field, message: error.message }
  }
  const [{ page, labels, next }, { keys, recentKeysOnly }, versions] = await Promise.all([
    filter ? pageOf(db, set, filter) : { page: [], labels: new Map<number, VersionLabels>(), next: null },
    keyChoicesOf(db, set.ownerId, filter?.apiKeyId), listVersions(db, set.id),
  ])
  const published = versions.find((v) => v.state === 'published')
  const keyName = new Map(keys.map((k) => [k.id, k.name]))
  const unnamed = [...new Set(page.map((row) => row.apiKeyId))].filter((id) => !keyName.has(id))
  for (const k of await apiKeyNamesByIds(db, set.ownerId, unnamed)) keyName.set(k.id, k.name)
  const shown = published?.id ?? versions[0]?.id
  const adviceOptions = shown === undefined ? [] : adviceNodesOf(await versionLabels(db, shown))
  return {
    set,
    rows: page.map((row) => {
      const { items } = itemsOf(row, labels.get(row.versionId)!)
      return {
        id: row.id, receivedAt: row.receivedAt, keyName: keyName.get(row.apiKeyId) ?? `Key ${row.apiKeyId}`, environment: row.environment,
        versionNumber: row.versionNumber, status: row.status, advice: items.filter((item) => item.group === 'advice').map((item) => item.headline),
        errorCount: row.outcome.errors.length,
      }
    }),
    next, problem, filtered: Object.values(query).some((v) => v !== undefined && v !== ''),
    keys, recentKeysOnly, versions: versions.map((v) => v.number), adviceOptions,
  }
}

/** A record by its Decision-Id; undefined for none, or for text that is no decision id (no record could have it). */
async function findByDecisionId(db: Db, decisionId: string): Promise<DecisionRecordRow | undefined> {
  const madeAt = madeAtOf(decisionId)
  return madeAt ? findDecisionRecord(db, decisionId.toLowerCase(), madeAt) : undefined
}

/** A record of a set, for its readers; any other (another set's, a bad id, none) is a 404 that tells nothing. */
async function recordOfSet(db: Db, set: AdviceSetRow, decisionId: string): Promise<DecisionRecordRow> {
  const row = await findByDecisionId(db, decisionId)
  if (!row || row.adviceSetId !== set.id) throw new NotFoundError('No decision record with this id in this advice set')
  return row
}

function shownValue(value: unknown): { text: string; personal: boolean } {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && (value as { personal?: unknown }).personal === true) return { text: 'personal, not kept', personal: true }
  return { text: typeof value === 'string' ? value : JSON.stringify(value), personal: false }
}

/** The decision page: the record, its key and version, its inputs in words and its outcome with the path to each item. */
export async function decisionPage(deps: Deps, actor: Actor, adviceSetId: number, decisionId: string, run?: ReplayTarget) {
  const db = deps.db
  const set = await teamSet(db, actor, adviceSetId)
  const row = await recordOfSet(db, set, decisionId)
  const [labels, [key], extras] = await Promise.all([versionLabels(db, row.versionId), apiKeyNamesByIds(db, set.ownerId, [row.apiKeyId]), recordPageExtras(deps, actor, set, row, run)])
  return {
    set,
    record: {
      id: row.id, receivedAt: row.receivedAt, environment: row.environment, endpoint: row.endpoint, contentType: row.contentType,
      versionId: row.versionId, versionNumber: row.versionNumber, status: row.status, engineMicros: row.engineMicros,
      keyName: key ? `${key.name}${key.deleted ? ' (deleted)' : ''}` : `Key ${row.apiKeyId}`,
    },
    inputs: Object.keys(row.inputs).sort().map((name) => ({ name, ...shownValue(row.inputs[name]) })),
    ...itemsOf(row, labels),
    errors: row.outcome.errors,
    ...extras,
  }
}

/**
 * GET /api/decision/{id}: a partner reads back what it was told. Only the key that caused the record reads it; to any
 * other key (even one of the same owner) the record does not exist.
 */
export async function partnerDecision(db: Db, key: AuthenticatedKey, decisionId: string): Promise<DecisionJson> {
  const row = await findByDecisionId(db, decisionId)
  if (!row || row.apiKeyId !== key.id || row.ownerId !== key.ownerId) throw new NotFoundError('No decision record with this id for this API key')
  return recordJson(row, await versionLabels(db, row.versionId))
}
