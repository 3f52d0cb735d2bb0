// Each activity row as one sentence with names: "Ada Author changed the Condition “{{Age}} >= 21” in the Rule
// “Eligibility”." Entity types read as SPEC §3 displays them (Advice Set, Rule, Rule Call …), a rule node by its type
// and text, people and teams by name. Pages show the parts (names linked to where they are today); the API and
// anything exported carry the same sentence as text (`summary`).
import type { AuditAction } from '../../db/schema/index.ts'
import { ENTITY_TYPES, NODE_TYPES, nodeSummary, type NodeType } from '../../engine/index.ts'
import { ENTITY_ACCESS_TOKEN } from '../accounts/access-tokens.ts'
import { ENTITY_COMMENT } from '../authoring/comments.ts'
import { ENTITY_DICTIONARY } from '../authoring/entities.ts'
import { ENTITY_RULE, ENTITY_RULE_NODE } from '../authoring/rules.ts'
import { ENTITY_SUPPLEMENT_LINK } from '../files/links.ts'
import { ENTITY_SUPPLEMENT, supplementHref } from '../files/supplements.ts'
import { ENTITY_EXTERNAL_API } from '../integrations/external-apis.ts'
import { ENTITY_ADVICE_REQUEST } from '../library/advice-requests.ts'
import { ENTITY_ADVICE_SET } from '../library/advice-sets.ts'
import { ENTITY_CATEGORY } from '../library/categories.ts'
import { ENTITY_KEYWORD_MAP } from '../library/keyword-maps.ts'
import { ENTITY_AUDIENCE } from '../publishing/audiences.ts'
import { ENTITY_VERSION } from '../publishing/versions.ts'
import { ENTITY_SCENARIO } from '../scenarios/access.ts'
import { ENTITY_DECISION_SUBJECT } from '../decisions/subject-rights.ts'
import { snapshotOf, type ActivityBook, type Snapshot } from './activity-book.ts'

/** A piece of a sentence: words, a name (quoted in text, linked on pages when it still exists) or the actor. */
export interface SentencePart {
  kind: 'text' | 'name' | 'actor'
  text: string
  href?: string
}

export interface LoggedItem {
  action: AuditAction
  entityType: string
  entityId: string
  before: unknown
  after: unknown
  actorId: number | null
  actorName: string | null
}

const NAME_MAX = 80
const SERVER_NAME = 'Advice Studio'

const words = (text: string): SentencePart => ({ kind: 'text', text })
function name(text: string, href?: string | null): SentencePart {
  const short = text.length > NAME_MAX ? `${text.slice(0, NAME_MAX - 1)}…` : text
  return href ? { kind: 'name', text: short, href } : { kind: 'name', text: short }
}

/** The sentence as plain text: names in quotes. */
export function sentenceText(parts: SentencePart[]): string {
  return parts.map((p) => (p.kind === 'name' ? `“${p.text}”` : p.text)).join('')
}

const COUNT_WORDS: Record<string, [string, string]> = {
  rules: ['rule', 'rules'], nodes: ['node', 'nodes'], entities: ['dictionary entry', 'dictionary entries'], scenarios: ['advice scenario', 'advice scenarios'],
  formulas: ['formula', 'formulas'],
}

/** `{ rules: 2, nodes: 16 }` → "2 rules, 16 nodes". */
export function countsInWords(counts: Record<string, unknown>): string {
  return Object.entries(counts)
    .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
    .map(([key, n]) => `${n} ${(COUNT_WORDS[key] ?? [key, key])[n === 1 ? 0 : 1]}`)
    .join(', ')
}

const VERB: Record<AuditAction, string> = { create: 'created', update: 'changed', delete: 'deleted', restore: 'restored' }

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)
const num = (value: unknown): number | null => (typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : null)

function isNodeType(type: unknown): type is NodeType {
  return typeof type === 'string' && (NODE_TYPES as readonly string[]).includes(type)
}

interface Words {
  item: LoggedItem
  book: ActivityBook
  /** The snapshot that describes the entity: after a create/update/restore, before a delete. */
  now: Snapshot
  was: Snapshot
}

// Nodes and rules ---------------------------------------------------------------------------------------------------

type NodeFields = Parameters<typeof nodeSummary>[0]

/** "the Condition “{{Age}} > 55”", "the Rule Call to “Tax check”", "the Rule Exit": a node by its type and text. */
export function nodePhrase(node: Snapshot, book: ActivityBook, href?: string | null): SentencePart[] {
  if (!isNodeType(node.type)) return [words('a rule node')]
  const type = ENTITY_TYPES[node.type].displayName
  const fields: NodeFields = {
    type: node.type, expression: str(node.expression), variable: str(node.variable), question: str(node.question), headline: str(node.headline),
    text: str(node.text), calledRuleId: num(node.calledRuleId), apiId: node.apiId === null || node.apiId === undefined ? null : String(node.apiId),
  }
  if (node.type === 'ruleExit' || node.type === 'conditionAlways') return [href ? { kind: 'text', text: `the ${type}`, href } : words(`the ${type}`)]
  if (node.type === 'ruleCall') {
    const called = num(node.calledRuleId)
    const rule = called === null ? undefined : book.names.rules.get(called)
    return rule ? [words(`the ${type} to `), name(rule.name, href)] : [words(`the ${type} to a deleted rule`)]
  }
  const summary = nodeSummary(fields, (id) => book.names.rules.get(Number(id))?.name, (id) => book.names.apis.get(Number(id)))
  return summary ? [words(`the ${type} `), name(summary, href)] : [words(`the ${type}`)]
}

function ruleHref(book: ActivityBook, ruleId: number): string | null {
  const rule = book.places.rules.get(ruleId)
  return rule?.live ? `/adviceset/${rule.adviceSetId}/rule/${ruleId}/show` : null
}

function inRule(book: ActivityBook, ruleId: number | null): SentencePart[] {
  const rule = ruleId === null ? undefined : book.names.rules.get(ruleId)
  return rule ? [words(' in the Rule '), name(rule.name, ruleHref(book, ruleId!))] : []
}

function ofSet(book: ActivityBook, setId: number | null, href?: string | null): SentencePart[] {
  const set = setId === null ? undefined : book.names.sets.get(setId)
  return set ? [words(' of '), name(set, href)] : []
}

function nodeHref(book: ActivityBook, nodeId: number): string | null {
  const node = book.places.nodes.get(nodeId)
  return node?.live ? `/adviceset/${node.adviceSetId}/rule/${node.ruleId}/part/${nodeId}` : null
}

function ruleNodeWords({ item, book, now }: Words): SentencePart[] {
  const copied = item.action === 'create' && now.copiedFrom !== undefined
  const verb = copied ? 'copied' : item.action === 'create' ? 'added' : VERB[item.action]
  const under = (num(now.subtree) ?? 1) - 1
  const renamed = snapshotOf(now.renamed)
  return [
    words(` ${verb} `), ...nodePhrase(now, book, nodeHref(book, Number(item.entityId))),
    ...(under > 0 ? [words(` ${copied ? 'with' : 'and'} the ${under === 1 ? 'node' : `${under} nodes`} under it`)] : []),
    ...inRule(book, num(now.ruleId)),
    ...(str(renamed.from) && str(renamed.to) ? [words(' when '), name(str(renamed.from)!), words(' was renamed '), name(str(renamed.to)!)] : []),
  ]
}

function ruleWords({ item, book, now }: Words): SentencePart[] {
  const id = Number(item.entityId)
  const subject = [words(' the Rule '), name(str(now.name) ?? `#${id}`, ruleHref(book, id))]
  if (item.action === 'create' && now.copiedFrom !== undefined) {
    const nodes = num(now.nodes) ?? 0
    return [words(' copied'), ...subject, ...(nodes > 0 ? [words(` with its ${nodes === 1 ? 'node' : `${nodes} nodes`}`)] : []), ...ofSet(book, num(now.adviceSetId))]
  }
  if (item.action === 'create' && now.callNodeId !== undefined) return [words(' created'), ...subject, words(' for a Rule Call'), ...ofSet(book, num(now.adviceSetId))]
  return [words(` ${VERB[item.action]}`), ...subject, ...ofSet(book, num(now.adviceSetId))]
}

// Sets, dictionary, comments ----------------------------------------------------------------------------------------

function adviceSetWords({ item, book, now }: Words): SentencePart[] {
  const href = item.action !== 'delete' && now.deleted !== true ? `/adviceset/${item.entityId}/show` : null
  const subject = [words(` ${VERB[item.action]} the ${ENTITY_TYPES.adviceSet.displayName} `), name(str(now.name) ?? `#${item.entityId}`, href)]
  const from = num(now.copiedFrom)
  if (item.action === 'create' && from !== null) return [...subject, words(' as a copy of '), name(book.names.sets.get(from) ?? 'a deleted advice set')]
  const promoted = num(now.promotedRuleId)
  if (item.action === 'create' && promoted !== null) return [...subject, words(' by promoting the Rule '), name(book.names.rules.get(promoted)?.name ?? `#${promoted}`, ruleHref(book, promoted))]
  if (item.action === 'create' && now.imported !== undefined) return [...subject, words(' by importing a file')]
  return subject
}

/** An import of a file into a set's working draft, or the restore of the draft it replaced. */
function setImportWords({ item, now }: Words): SentencePart[] {
  const set = name(str(now.name) ?? `#${item.entityId}`, `/adviceset/${item.entityId}/show`)
  if (item.action === 'restore') return [words(' restored the working draft of the Advice Set '), set, words(' as it was before an import')]
  const imported = snapshotOf(now.imported)
  const from = num(imported.fromVersion)
  const count = (n: number | null, one: string) => `${n ?? 0} ${one}${n === 1 ? '' : 's'}`
  return [words(' imported a file into the working draft of the Advice Set '), set, words(` (${count(num(imported.rules), 'rule')}, ${count(num(imported.nodes), 'node')}${from !== null ? `, from version ${from}` : ''})`)]
}

function dictionaryWords({ item, book, now }: Words): SentencePart[] {
  const id = Number(item.entityId)
  const formula = now.entityTypeId === ENTITY_TYPES.formula.id
  const known = now.entityTypeId !== undefined
  const entry = str(now.reservedName) ?? str(now.name) ?? `#${id}`
  const href = book.places.liveEntities.has(id) ? `/card/${formula ? 'formula' : 'variable'}/${id}` : null
  const type = !known ? 'dictionary entry' : formula ? ENTITY_TYPES.formula.displayName : ENTITY_TYPES.variable.displayName
  return [words(` ${VERB[item.action]} the ${type} `), name(!known ? entry : formula ? `[[${entry}]]` : `{{${entry}}}`, href)]
}

function commentWords({ item, book, now }: Words): SentencePart[] {
  const place = book.places.comments.get(Number(item.entityId))
  const node = place?.nodeId === undefined ? undefined : book.names.nodes.get(place.nodeId)
  const on = node ? [words(' on '), ...nodePhrase({ ...node }, book, place?.live ? nodeHref(book, place.nodeId!) : null), ...inRule(book, node.ruleId)] : []
  const body = name(str(now.body) ?? str(now.name) ?? '')
  if (item.action === 'create') return [words(' commented'), ...on, words(': '), body]
  const verb = item.action === 'update' ? 'edited' : VERB[item.action]
  return [words(` ${verb} the comment `), body, ...on]
}

// Publishing --------------------------------------------------------------------------------------------------------

const TRANSITIONS: Record<string, [string, string]> = {
  submit: ['submitted', ' for review'],
  requestChanges: ['requested changes to', ''],
  approve: ['approved', ''],
  preview: ['put', ' in preview'],
  publish: ['published', ''],
  unpublish: ['unpublished', ''],
}

function versionWords({ item, book, now }: Words): SentencePart[] {
  const id = Number(item.entityId)
  const number = num(now.number) ?? book.names.versions.get(id)?.number
  const setId = num(now.adviceSetId) ?? book.names.versions.get(id)?.adviceSetId ?? null
  const version = name(number === undefined ? `#${id}` : `Version ${number}`, setId === null ? null : `/adviceset/${setId}/publish/versions/${id}`)
  const restored = snapshotOf(now.restoredIntoDraft)
  if (item.action === 'restore' && Object.keys(restored).length > 0) {
    const counts = countsInWords({ rules: restored.rules, nodes: restored.nodes, entities: restored.entities })
    return [words(' restored '), version, ...ofSet(book, setId), words(` into the working draft${counts ? ` (${counts})` : ''}`)]
  }
  const step = TRANSITIONS[str(now.transition) ?? '']
  if (item.action === 'update' && step) {
    const risks = str(snapshotOf(now.review).risks)
    return [words(` ${step[0]} `), version, ...ofSet(book, setId), words(step[1]), ...(risks ? [words(` despite ${risks}`)] : [])]
  }
  return [words(` ${VERB[item.action]} `), version, ...ofSet(book, setId)]
}

function audienceWords({ item, book, now, was }: Words): SentencePart[] {
  const audience = name(book.names.audiences.get(Number(item.entityId)) ?? str(now.name) ?? str(was.name) ?? `#${item.entityId}`)
  if ('versionId' in now) {
    const versionId = num(now.versionId)
    const setId = num(now.adviceSetId)
    const version = versionId === null ? undefined : book.names.versions.get(versionId)
    if (!version) return [words(' stopped giving the audience '), audience, words(' a version of its own'), ...ofSet(book, setId)]
    return [words(' gave the audience '), audience, words(' '), name(`Version ${version.number}`), ...ofSet(book, setId)]
  }
  return [words(` ${VERB[item.action]} the audience `), audience]
}

// Accounts and operations -------------------------------------------------------------------------------------------

const ARTICLE_ROLE: Record<string, string> = { admin: 'an admin', author: 'an author', viewer: 'a viewer' }

function userWords({ item, book, now }: Words): SentencePart[] {
  const id = Number(item.entityId)
  const self = item.actorId === id
  const person = name(book.names.users.get(id) ?? str(now.name) ?? 'a deleted user')
  const role = ARTICLE_ROLE[str(now.role) ?? '']
  if (item.action === 'create') {
    if (self) return [words(' signed up'), ...(role ? [words(` as ${role}`)] : [])]
    return [words(item.actorId === null ? ' created the account of ' : ' invited '), person, ...(role ? [words(` as ${role}`)] : [])]
  }
  if (item.action === 'update') {
    const password = str(now.password)
    if (password) {
      const verb = password === 'reset' ? 'reset' : password === 'set up' ? 'set up' : 'changed'
      return self ? [words(` ${verb} their password`)] : [words(` ${verb} the password of `), person]
    }
    if ('preferences' in now) return self ? [words(' changed their preferences')] : [words(' changed the preferences of '), person]
    return self ? [words(' changed their profile')] : [words(' changed the profile of '), person]
  }
  return [words(` ${VERB[item.action]} the user `), person]
}

function impersonationWords({ item, book }: Words): SentencePart[] {
  const person = name(book.names.users.get(Number(item.entityId)) ?? 'a deleted user')
  return [words(item.action === 'delete' ? ' stopped impersonating ' : ' started impersonating '), person]
}

const EXPORTS: Record<string, string> = { questions: 'the questions', 'ai-user-requests': 'the requests for advice', activity: 'the activity log' }

const SUBJECT_VERBS: Record<string, string> = { access: 'looked up', export: 'exported', erase: 'erased' }

/** "looked up 3 decision records whose {{Email}} held the value asked for" (the value itself is never logged). */
function decisionSubjectWords({ item, now }: Words): SentencePart[] {
  const count = num(now.count) ?? 0
  const verb = SUBJECT_VERBS[str(now.request) ?? ''] ?? VERB[item.action]
  return [words(` ${verb} ${count === 1 ? '1 decision record' : `${count} decision records`} whose `), name(`{{${str(now.variable) ?? item.entityId}}}`), words(' held the value asked for (a data subject request)')]
}

function exportWords({ item, now }: Words): SentencePart[] {
  const [kind = '', format = ''] = item.entityId.split('.')
  const rows = num(now.rows)
  return [words(` exported ${EXPORTS[kind] ?? kind} as ${format.toUpperCase()}${rows === null ? '' : ` (${rows === 1 ? '1 row' : `${rows} rows`})`}`)]
}

function jobWords({ item, book }: Words): SentencePart[] {
  const job = name(book.names.jobs.get(Number(item.entityId)) ?? 'a job')
  return [words(item.action === 'create' ? ' started the job ' : item.action === 'update' ? ' cancelled the job ' : ` ${VERB[item.action]} the job `), job]
}

function tagWords({ item, book, now, was }: Words): SentencePart[] {
  const tag = name(str(was.name) ?? str(now.name) ?? `#${item.entityId}`)
  const into = num(snapshotOf(item.after).mergedInto)
  if (into !== null) return [words(' merged the tag '), tag, words(' into '), name(book.names.tags.get(into) ?? 'a deleted tag', `/admin/tag/${into}/edit`)]
  return [words(` ${VERB[item.action]} the tag `), name(str(now.name) ?? str(was.name) ?? `#${item.entityId}`, item.action === 'delete' ? null : `/admin/tag/${item.entityId}/edit`)]
}

function apiKeyWords(w: Words): SentencePart[] {
  const key = name(str(w.now.name) ?? `#${w.item.entityId}`, liveOnly(w) ? `/admin/apikey/${w.item.entityId}/edit` : null)
  if (w.item.action !== 'update' || w.now.rotated !== true) return [words(` ${VERB[w.item.action]} the API key `), key]
  const hours = num(w.now.graceHours) ?? 0
  return [words(' rotated the secret of the API key '), key,
    words(hours === 0 ? '; the old secret stopped working at once' : `; the old secret stays valid for ${hours === 1 ? '1 hour' : `${hours} hours`}`)]
}

/**
 * "created the personal access token “laptop” (ast_1a2b3c4d) for export and import", "revoked …", and each use: "used the
 * personal access token “laptop” (ast_1a2b3c4d) for GET /api/adviceset/12".
 */
function accessTokenWords({ item, now }: Words): SentencePart[] {
  const token = [words(' the personal access token '), name(str(now.name) ?? `#${item.entityId}`), ...(str(now.prefix) ? [words(` (${str(now.prefix)})`)] : [])]
  const used = str(now.used)
  if (item.action === 'update' && used) return [words(' used'), ...token, words(' for '), name(used)]
  if (item.action === 'create') {
    const scopes = Array.isArray(now.scopes) ? now.scopes.filter((s): s is string => typeof s === 'string') : []
    return [words(' created'), ...token, ...(scopes.length > 0 ? [words(` for ${scopes.join(' and ')}`)] : [])]
  }
  return [words(item.action === 'delete' ? ' revoked' : ` ${VERB[item.action]}`), ...token]
}

// Everything else: "the <kind> “name”" ------------------------------------------------------------------------------

function namedThing(kind: string, href?: (w: Words) => string | null) {
  return (w: Words): SentencePart[] => [words(` ${VERB[w.item.action]} the ${kind} `), name(str(w.now.name) ?? str(w.was.name) ?? `#${w.item.entityId}`, href?.(w))]
}

const liveOnly = (w: Words) => w.item.action !== 'delete' && w.now.deleted !== true

const WORDERS: Record<string, (w: Words) => SentencePart[]> = {
  [ENTITY_ADVICE_SET]: adviceSetWords,
  advicesetimport: setImportWords,
  [ENTITY_CATEGORY]: namedThing(ENTITY_TYPES.adviceCategory.displayName),
  [ENTITY_RULE]: ruleWords,
  [ENTITY_RULE_NODE]: ruleNodeWords,
  [ENTITY_DICTIONARY]: dictionaryWords,
  [ENTITY_COMMENT]: commentWords,
  [ENTITY_VERSION]: versionWords,
  [ENTITY_AUDIENCE]: audienceWords,
  [ENTITY_SCENARIO]: (w) => {
    const setId = num(w.now.adviceSetId)
    const href = liveOnly(w) && setId !== null ? `/adviceset/${setId}/advicescenario/${w.item.entityId}/show` : null
    const verb = w.item.action === 'create' && w.now.copiedFrom !== undefined ? 'copied' : VERB[w.item.action]
    return [words(` ${verb} the advice scenario `), name(str(w.now.name) ?? `#${w.item.entityId}`, href), ...ofSet(w.book, setId)]
  },
  [ENTITY_KEYWORD_MAP]: namedThing('keyword map', (w) => (liveOnly(w) ? `/admin/keywordMap/${w.item.entityId}` : null)),
  [ENTITY_EXTERNAL_API]: namedThing('external API', (w) => (liveOnly(w) ? `/api-manager/${w.item.entityId}/edit` : null)),
  [ENTITY_SUPPLEMENT]: namedThing('supplement', (w) => (liveOnly(w) ? supplementHref({ id: Number(w.item.entityId), format: w.now.format === 'viz' ? 'viz' : 'file' }) : null)),
  [ENTITY_SUPPLEMENT_LINK]: (w) => {
    const file = name(str(w.now.name) ?? `#${w.item.entityId}`)
    const target = str(w.now.linkedTo)
    const linked = w.item.action === 'delete' ? [words(' unlinked the supplement '), file, words(' from')] : [words(' linked the supplement '), file, words(' to')]
    return target ? [...linked, words(' '), name(target)] : linked.slice(0, 2)
  },
  [ENTITY_ADVICE_REQUEST]: (w) => {
    const text = name(str(w.now.text) ?? str(w.was.text) ?? '')
    if (w.item.action === 'create') return [words(w.item.actorId === null ? ' received the request for advice ' : ' recorded the request for advice '), text]
    return [words(` ${VERB[w.item.action]} the request for advice `), text]
  },
  apikey: apiKeyWords,
  [ENTITY_ACCESS_TOKEN]: accessTokenWords,
  tag: tagWords,
  user: userWords,
  owner: (w) => [words(` ${VERB[w.item.action]} the team `), name(w.book.names.owners.get(w.item.entityId) ?? str(w.now.name) ?? 'a team')],
  impersonation: impersonationWords,
  export: exportWords,
  [ENTITY_DECISION_SUBJECT]: decisionSubjectWords,
  job: jobWords,
  'search-object': (w) => [words(' removed '), name(w.item.entityId), words(' from the search index')],
}

/** Who acted: the end of an impersonation is recorded under the person impersonated, but was the admin's doing. */
function actorOf(item: LoggedItem, book: ActivityBook): string {
  if (item.entityType === 'impersonation' && item.action === 'delete') {
    const by = num(snapshotOf(item.before).by)
    if (by !== null && book.names.users.has(by)) return book.names.users.get(by)!
  }
  return item.actorName ?? SERVER_NAME
}

/** One row as a sentence. */
export function activitySentence(item: LoggedItem, book: ActivityBook): SentencePart[] {
  const before = snapshotOf(item.before)
  const after = snapshotOf(item.after)
  const w: Words = { item, book, now: item.action === 'delete' ? { ...after, ...before, ...pick(after, ['subtree', 'mergedInto']) } : { ...before, ...after }, was: before }
  const worder = WORDERS[item.entityType] ?? namedThing(item.entityType.replace(/[-_]/g, ' '))
  return [{ kind: 'actor', text: actorOf(item, book) }, ...worder(w), words('.')]
}

function pick(snapshot: Snapshot, fields: string[]): Snapshot {
  return Object.fromEntries(fields.filter((f) => f in snapshot).map((f) => [f, snapshot[f]]))
}
