// What an activity row changed, field by field, as people read it: labels instead of field names, names instead of
// ids, Yes/No, lists in words. Never raw JSON: a value nobody taught this module still reads as "key: value" pairs.
// Fields the sentence already tells (a copy's source, a restore's counts, a deleted subtree) are left out here.
import type { AuditAction, DecisionMode } from '../../db/schema/index.ts'
import { ENTITY_TYPE_LIST, ENTITY_TYPES, NODE_TYPES } from '../../engine/index.ts'
import { ENTITY_COMMENT } from '../authoring/comments.ts'
import { ENTITY_DICTIONARY } from '../authoring/entities.ts'
import { ENTITY_RULE, ENTITY_RULE_NODE } from '../authoring/rules.ts'
import { ENTITY_SUPPLEMENT_LINK } from '../files/links.ts'
import { ENTITY_VERSION } from '../publishing/versions.ts'
import { ENTITY_SCENARIO } from '../scenarios/access.ts'
import { DECISION_MODE_LABELS } from '../decisions/owner-settings.ts'
import { ENTITY_DECISION_SUBJECT } from '../decisions/subject-rights.ts'
import { snapshotOf, type ActivityBook } from './activity-book.ts'
import { countsInWords, nodePhrase, sentenceText } from './activity-sentences.ts'

export interface FieldChange { field: string; before: unknown; after: unknown }
export interface ReadableChange { label: string; before: string; after: string }

const FIELD_LABELS: Record<string, string> = {
  name: 'Name', nameAlt: 'Display name', description: 'Description', categoryId: 'Category', isPublic: 'Public',
  isStarter: 'Starter', tagIds: 'Tags', deleted: 'Deleted', ownerId: 'Owner', title: 'About', role: 'Role', email: 'E-mail',
  preferences: 'Preferences', slug: 'Slug', type: 'Type', label: 'Label', hasPassword: 'Password set', password: 'Password',
  position: 'Position', adviceSetId: 'Advice set', parentId: 'Parent node', expression: 'Expression', variable: 'Variable',
  headline: 'Headline', text: 'Text', question: 'Question', calledRuleId: 'Calls rule', apiId: 'External API', tags: 'Tags',
  sources: 'Sources', entityTypeId: 'Kind', reservedName: 'Name', dataType: 'Data type',
  validOptions: 'Options', isClosedSet: 'Closed set', displayFormat: 'Display format', defaultValue: 'Default value',
  isConstant: 'Constant', personal: 'Personal data', body: 'Comment', renamed: 'Renamed', rewritten: 'Rewritten uses', promotedRuleId: 'Promoted rule',
  number: 'Number', state: 'State', notes: 'Notes', comment: 'Note', review: 'Review',
  inputs: 'Answers', runAsOf: 'Run as of', expected: 'Expected outcome', pinnedResponses: 'Pinned API responses',
  phrases: 'Phrases', scenarioId: 'Scenario', copied: 'Copied',
  format: 'Format', contentType: 'File type', fileExt: 'Extension', size: 'Size (bytes)', url: 'Address', imageUrl: 'Image', linkedTo: 'Linked to',
  createdBy: 'Created by', environment: 'Environment', prefix: 'Key starts with', allowedAdviceSetIds: 'Advice sets', allowedOrigins: 'Allowed origins',
  rateLimit: 'Requests per minute', adviceRequests: 'Requests for advice in the embed', explain: 'Explanations', audienceId: 'Audience',
  method: 'Method', urlTemplate: 'Address', headers: 'Headers', bodyTemplate: 'Body', timeoutMs: 'Timeout (ms)', responseMapping: 'Response mapping',
  cacheTtlSeconds: 'Cache (seconds)', sampleResponse: 'Sample response', status: 'Status', answeredByRuleId: 'Answered by rule', source: 'Source',
  apiKeyId: 'API key', sets: 'Advice sets', versionId: 'Version', kind: 'Kind', onlyWhenCalled: 'Runs only when called',
  selfApprovalAllowed: 'Self-approval allowed', selfApproval: 'Approved',
  decisionMode: 'Decision records', decisionRetentionDays: 'Keep records (days)',
  scopes: 'Scopes', expiresAt: 'Expires', used: 'Request', scope: 'Scope used',
}

/** Ids and bookkeeping, and what the sentence tells already. */
const HIDDEN_FIELDS = new Set([
  'id', 'copiedFrom', 'subtree', 'callNodeId', 'nodes', 'draftRules', 'restoredIntoDraft', 'transition', 'mergedInto',
  'cancelRequested', 'rows', 'jobId', 'by', 'userId', 'contentHash', 'submittedBy', 'approvedBy', 'publishedBy',
  'draft', 'replacedRules', 'imported', 'restoredRules',
])

/** Snapshot fields that repeat another one (parentId, name) or never change, per entity type. */
const HIDDEN_BY_TYPE: Record<string, Set<string>> = {
  [ENTITY_RULE]: new Set(['parentId', 'adviceSetId']),
  [ENTITY_RULE_NODE]: new Set(['name', 'ruleId']),
  [ENTITY_DICTIONARY]: new Set(['name', 'parentId', 'ownerId']),
  [ENTITY_COMMENT]: new Set(['name', 'parentId', 'ruleNodeId']),
  // A version's number is its name in the sentence ("Version 3"); it never changes, so a row for it only says "— → 3".
  [ENTITY_VERSION]: new Set(['name', 'adviceSetId', 'number']),
  [ENTITY_SCENARIO]: new Set(['parentId', 'adviceSetId']),
  [ENTITY_SUPPLEMENT_LINK]: new Set(['supplementId', 'targetType', 'targetId']),
  audience: new Set(['adviceSetId']),
  impersonation: new Set(['email']),
  // The sentence tells the request, the variable and the count.
  [ENTITY_DECISION_SUBJECT]: new Set(['request', 'variable', 'count']),
}

/** Field by field, what differs between two snapshots (a create lists every field it set). */
export function diff(before: unknown, after: unknown): FieldChange[] {
  const b = snapshotOf(before)
  const a = snapshotOf(after)
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((f) => !HIDDEN_FIELDS.has(f))
  return fields
    .filter((f) => JSON.stringify(b[f]) !== JSON.stringify(a[f]))
    .map((f) => ({ field: f, before: b[f], after: a[f] }))
}

const EMPTY = '—'

/** Anything else as words: lists joined, objects as "key: value" pairs (never JSON). */
function plainWords(value: unknown): string {
  if (value === null || value === undefined || value === '') return EMPTY
  if (typeof value === 'boolean') return value ? 'Yes' : 'No'
  if (typeof value === 'string' || typeof value === 'number') return String(value)
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(plainWords).join(', ')
  const entries = Object.entries(value as Record<string, unknown>)
  return entries.length === 0 ? 'none' : entries.map(([k, v]) => `${k}: ${plainWords(v)}`).join('; ')
}

/** A scenario's answers (or checked variables) as `{{Name}} = value` pairs. */
function answersText(values: Record<string, unknown>): string {
  const pairs = Object.entries(values).map(([name, v]) => `{{${name}}} = ${typeof v === 'string' ? v : plainWords(v)}`)
  return pairs.length ? pairs.join(', ') : 'none'
}

function nodeText(book: ActivityBook, id: unknown): string {
  const node = typeof id === 'number' ? book.names.nodes.get(id) : undefined
  if (!node) return 'a deleted node'
  return sentenceText(nodePhrase({ ...node }, book)).replace(/^the /, '')
}

function listOf(values: unknown, read: (id: number) => string | undefined, missing: string): string {
  if (!Array.isArray(values)) return EMPTY
  return values.length === 0 ? 'none' : values.map((id) => read(Number(id)) ?? missing).join(', ')
}

type Reader = (value: unknown, book: ActivityBook) => string

const READERS: Record<string, Reader> = {
  categoryId: (v, book) => (typeof v === 'number' ? book.categories.get(v) ?? 'a deleted category' : EMPTY),
  tagIds: (v, book) => listOf(v, (id) => book.names.tags.get(id), 'a deleted tag'),
  ownerId: (v, book) => (typeof v === 'string' ? book.names.owners.get(v) ?? 'another team' : EMPTY),
  adviceSetId: (v, book) => (typeof v === 'number' ? book.names.sets.get(v) ?? 'a deleted advice set' : EMPTY),
  allowedAdviceSetIds: (v, book) => (Array.isArray(v) && v.length === 0 ? 'every advice set' : listOf(v, (id) => book.names.sets.get(id), 'a deleted advice set')),
  sets: (v, book) => listOf(v, (id) => book.names.sets.get(id), 'a deleted advice set'),
  calledRuleId: (v, book) => (typeof v === 'number' ? book.names.rules.get(v)?.name ?? 'a deleted rule' : EMPTY),
  promotedRuleId: (v, book) => (typeof v === 'number' ? book.names.rules.get(v)?.name ?? 'a deleted rule' : EMPTY),
  answeredByRuleId: (v, book) => (typeof v === 'number' ? book.names.rules.get(v)?.name ?? 'a deleted rule' : EMPTY),
  parentId: (v, book) => (v === null ? 'the top of the rule' : nodeText(book, v)),
  scenarioId: (v, book) => (typeof v === 'number' ? book.names.scenarios.get(v) ?? 'a deleted scenario' : EMPTY),
  apiId: (v, book) => (v === null || v === undefined || v === '' ? EMPTY : book.names.apis.get(Number(v)) ?? 'a deleted external API'),
  audienceId: (v, book) => (typeof v === 'number' ? book.names.audiences.get(v) ?? 'a deleted audience' : 'none'),
  apiKeyId: (v, book) => (typeof v === 'number' ? book.names.apiKeys.get(v) ?? 'a deleted API key' : EMPTY),
  createdBy: (v, book) => (typeof v === 'number' ? book.names.users.get(v) ?? 'a deleted user' : EMPTY),
  versionId: (v, book) => {
    const version = typeof v === 'number' ? book.names.versions.get(v) : undefined
    return version ? `Version ${version.number}` : 'none'
  },
  pinnedResponses: (v, book) => {
    const ids = Object.keys(snapshotOf(v))
    return ids.length ? ids.map((id) => book.names.apis.get(Number(id)) ?? 'a deleted external API').join(', ') : 'none'
  },
  entityTypeId: (v) => ENTITY_TYPE_LIST.find((t) => t.id === v)?.displayName ?? EMPTY,
  type: (v) => ((NODE_TYPES as readonly unknown[]).includes(v) ? ENTITY_TYPES[v as (typeof NODE_TYPES)[number]].displayName : plainWords(v)),
  phrases: (v) => (Array.isArray(v) ? v.map((p) => `“${String(p)}”`).join(', ') : EMPTY),
  sources: (v) => (Array.isArray(v) ? (v.length === 0 ? 'none' : v.map((s) => plainWords(snapshotOf(s).name)).join(', ')) : EMPTY),
  headers: (v) => (Array.isArray(v) ? (v.length === 0 ? 'none' : v.map((h) => plainWords(snapshotOf(h).name)).join(', ')) : EMPTY),
  responseMapping: (v) => (Array.isArray(v) ? (v.length === 0 ? 'none' : v.map((m) => `${plainWords(snapshotOf(m).path)} → {{${plainWords(snapshotOf(m).variable)}}}`).join(', ')) : EMPTY),
  renamed: (v) => `${plainWords(snapshotOf(v).from)} → ${plainWords(snapshotOf(v).to)}`,
  rewritten: (v) => {
    const { nodes = [], entities = [] } = snapshotOf(v) as { nodes?: unknown[]; entities?: unknown[] }
    return countsInWords({ nodes: nodes.length, formulas: entities.length })
  },
  copied: (v) => countsInWords(snapshotOf(v)),
  preferences: (v) => {
    const tz = snapshotOf(v).tz
    return typeof tz === 'string' ? `Timezone ${tz}` : plainWords(v)
  },
  review: (v) => {
    const review = snapshotOf(v)
    const scenarios = snapshotOf(review.scenarios)
    const risks = typeof review.risks === 'string' && review.risks !== '' ? review.risks : 'no risks'
    return `${countsInWords({ scenarios: scenarios.total })} (${plainWords(scenarios.pass)} passing), ${risks}`
  },
  inputs: (v) => answersText(snapshotOf(v)),
  selfApproval: (v) => `by its submitter, as allowed by ${plainWords(snapshotOf(v).allowedByName)}`,
  decisionMode: (v) => DECISION_MODE_LABELS[v as DecisionMode] ?? plainWords(v),
  expected: (v, book) => {
    const { advice = [], focus = 'complete', variables = {} } = snapshotOf(v) as { advice?: unknown[]; focus?: unknown; variables?: Record<string, unknown> }
    const checked = Object.keys(variables).length ? `; ${answersText(variables)}` : ''
    const adviceText = advice.length ? advice.map((id) => nodeText(book, Number(id))).join(', ') : 'none'
    return `advice ${adviceText}; focus ${focus === 'complete' ? 'complete' : nodeText(book, Number(focus))}${checked}`
  },
}

function readable(field: string, value: unknown, book: ActivityBook): string {
  if (value === null || value === undefined || value === '') return READERS[field] && value === null ? READERS[field](value, book) : EMPTY
  if (typeof value === 'boolean') return value ? 'Yes' : 'No'
  const reader = READERS[field]
  return reader ? reader(value, book) : plainWords(value)
}

/** Values a new entity starts with anyway; a create lists only what was actually set. */
function isDefault(field: string, value: unknown): boolean {
  return value === null || value === undefined || value === '' || value === false || field === 'ownerId' || (Array.isArray(value) && value.length === 0)
}

export function readableChanges(entityType: string, action: AuditAction, changes: FieldChange[], book: ActivityBook): ReadableChange[] {
  const hidden = HIDDEN_BY_TYPE[entityType]
  return changes
    .filter((c) => !hidden?.has(c.field))
    .filter((c) => action !== 'create' || !isDefault(c.field, c.after))
    .map((c) => ({ label: FIELD_LABELS[c.field] ?? c.field, before: readable(c.field, c.before, book), after: readable(c.field, c.after, book) }))
}
