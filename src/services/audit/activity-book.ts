// Everything an activity page needs to word its rows with names: the ids its snapshots hold (users, owners, sets,
// rules, nodes, scenarios, tags, APIs, versions, audiences, keys) read in one go, and where rules, nodes and comments
// are today (for links). The sentences themselves are in activity-sentences.ts.
import { activityNames, type ActivityNameIds, type ActivityNames } from '../../db/queries/activity-names.ts'
import { placesOf } from '../../db/queries/activity-scope.ts'
import type { Deps } from '../context.ts'
import { listVisibleCategories } from '../library/categories.ts'
import type { Actor } from '../context.ts'
import { ENTITY_ADVICE_SET } from '../library/advice-sets.ts'
import { ENTITY_COMMENT } from '../authoring/comments.ts'
import { ENTITY_DICTIONARY } from '../authoring/entities.ts'
import { ENTITY_RULE, ENTITY_RULE_NODE } from '../authoring/rules.ts'

export interface LoggedRow {
  entityType: string
  entityId: string
  before: unknown
  after: unknown
  actorId: number | null
}

export type Snapshot = Record<string, unknown>

export function snapshotOf(value: unknown): Snapshot {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Snapshot : {}
}

const asNumber = (value: unknown): number | null => (typeof value === 'number' && Number.isSafeInteger(value) ? value : typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : null)

/** Snapshot fields that hold an id, by the kind of thing they name. */
const ID_FIELDS: Record<keyof ActivityNameIds, readonly string[]> = {
  users: ['createdBy', 'by', 'userId', 'invitedBy'],
  owners: ['ownerId'],
  sets: ['adviceSetId', 'allowedAdviceSetIds', 'sets'],
  rules: ['calledRuleId', 'promotedRuleId', 'ruleId', 'answeredByRuleId'],
  nodes: ['parentId', 'callNodeId'],
  scenarios: ['scenarioId'],
  tags: ['tagIds', 'mergedInto'],
  apis: ['apiId', 'pinnedResponses'],
  versions: ['versionId'],
  audiences: ['audienceId'],
  apiKeys: ['apiKeyId'],
  jobs: ['jobId'],
}

/** Entity types whose own id (not a snapshot field) names a thing of a kind. */
const OWN_ID_KIND: Record<string, keyof ActivityNameIds> = {
  [ENTITY_ADVICE_SET]: 'sets', [ENTITY_RULE]: 'rules', [ENTITY_RULE_NODE]: 'nodes', user: 'users', impersonation: 'users', version: 'versions', job: 'jobs',
}

function idsIn(value: unknown, field: string): unknown[] {
  if (field === 'pinnedResponses') return Object.keys(snapshotOf(value))
  return Array.isArray(value) ? value : [value]
}

/** What a row's snapshot fields mean depends on its type: a rule's parentId is its set, a node's is a node. */
function kindOf(entityType: string, field: string, kind: keyof ActivityNameIds): keyof ActivityNameIds | null {
  if (field === 'parentId') return entityType === ENTITY_RULE_NODE ? 'nodes' : null
  return kind
}

function collectIds(rows: LoggedRow[]): ActivityNameIds {
  const ids = emptyIds()
  for (const row of rows) {
    if (row.actorId !== null) ids.users.push(row.actorId)
    const own = OWN_ID_KIND[row.entityType]
    const ownId = asNumber(row.entityId)
    if (own && ownId !== null) (ids[own] as number[]).push(ownId)
    for (const snapshot of [snapshotOf(row.before), snapshotOf(row.after)]) {
      for (const [kind, fields] of Object.entries(ID_FIELDS) as Array<[keyof ActivityNameIds, readonly string[]]>) {
        for (const field of fields) {
          if (!(field in snapshot)) continue
          const target = kindOf(row.entityType, field, kind)
          if (!target) continue
          for (const raw of idsIn(snapshot[field], field)) {
            if (target === 'owners') { if (typeof raw === 'string') ids.owners.push(raw); continue }
            const id = asNumber(raw)
            if (id !== null) (ids[target] as number[]).push(id)
          }
        }
      }
      const restored = snapshotOf(snapshot.restoredIntoDraft)
      const versionId = asNumber(restored.versionId)
      if (versionId !== null) ids.versions.push(versionId)
    }
  }
  return ids
}

/** The names a page of log rows needs, plus the node behind each comment (a comment is worded by its node). */
export async function activityBook(deps: Deps, actor: Actor, rows: LoggedRow[]) {
  const ids = collectIds(rows)
  const idsOf = (type: string) => rows.filter((r) => r.entityType === type).map((r) => Number(r.entityId))
  const places = await placesOf(deps.db, {
    ruleIds: [...new Set(ids.rules)], nodeIds: idsOf(ENTITY_RULE_NODE), commentIds: idsOf(ENTITY_COMMENT), entityIds: idsOf(ENTITY_DICTIONARY),
  })
  for (const comment of places.comments.values()) if (comment.nodeId !== undefined) ids.nodes.push(comment.nodeId)
  const names = await activityNames(deps.db, ids)
  // Nodes name the rule they are in and the rule they call; those were not all known before the nodes were read.
  const moreRules = [...names.nodes.values()].flatMap((n) => [n.ruleId, n.calledRuleId]).filter((id): id is number => id !== null && !names.rules.has(id))
  if (moreRules.length) for (const [id, rule] of (await activityNames(deps.db, { ...emptyIds(), rules: moreRules })).rules) names.rules.set(id, rule)
  const categories = new Map((await listVisibleCategories(deps, actor)).map((c) => [c.id, c.name]))
  return { names, places, categories }
}

function emptyIds(): ActivityNameIds {
  return { users: [], owners: [], sets: [], rules: [], nodes: [], scenarios: [], tags: [], apis: [], versions: [], audiences: [], apiKeys: [], jobs: [] }
}

export type ActivityBook = Awaited<ReturnType<typeof activityBook>>
export type { ActivityNames }
