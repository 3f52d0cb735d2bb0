// Export of an advice set as an `advice-set@1` document (portable-format.ts): its working draft, or one of its versions
// exactly as it was published. Database ids become keys and names here; everything is written in a fixed order (rules
// in run order, nodes in tree order, the dictionary by name, scenarios and supplements in a fixed order), so exporting
// the same content twice gives the same bytes.
import type { Readable } from 'node:stream'
import type { Db } from '../../db/client.ts'
import type { AdviceSetRow } from '../../db/queries/advice-sets.ts'
import { findTagsByIds, tagIdsFor } from '../../db/queries/advice-sets.ts'
import type { EntityRow } from '../../db/queries/entities.ts'
import { findOwnerExternalApis, type ExternalApiRow } from '../../db/queries/external-apis.ts'
import { listKeywordMaps } from '../../db/queries/keyword-maps.ts'
import { categoryName, entityRowsByIds, nodeKeysByIds, ruleKeysByIds, supplementRowsByIds } from '../../db/queries/portable.ts'
import { listSetNodesEver } from '../../db/queries/rule-nodes.ts'
import { findScenariosOfSet } from '../../db/queries/scenarios.ts'
import { listLinkedSupplements, type SupplementRow } from '../../db/queries/supplements.ts'
import { findVersion, listVersions } from '../../db/queries/versions.ts'
import type { AdviceSetModel, EntityModel, NodeModel, RuleModel } from '../../engine/index.ts'
import { buildAdviceSetModel, dictionaryFor } from '../authoring/advice-set-model.ts'
import type { Actor, Deps } from '../context.ts'
import { NotFoundError } from '../errors.ts'
import { splitSources } from '../files/sources.ts'
import { entitiesInUse, type VersionSnapshot } from '../publishing/snapshot.ts'
import { teamSet } from '../publishing/versions.ts'
import { ENTITY_ADVICE_SET } from './advice-sets.ts'
import { writePortableZip } from './portable-zip.ts'
import {
  documentText, FORMAT_NAME, type AdviceSetDocument, type PortableEntry, type PortableExternalApi, type PortableNode, type PortableRule, type PortableScenario,
  type PortableSupplement,
} from './portable-format.ts'

export interface ExportedSet {
  document: AdviceSetDocument
  /** The supplements whose bytes the ZIP form carries, by their path in it (`files/…`). */
  files: Map<string, SupplementRow>
  /** A file name for the download: the set's name and the version's number. */
  fileName: string
}

/** What turns the model's ids into the document's keys and names. */
interface Names {
  ruleKeys: Map<string, { key: string; name: string; adviceSet?: string }>
  nodeKeys: Map<string, string>
  apiNames: Map<string, string>
  supplementKeys: Map<number, string>
}

function ruleKeyOf(rule: RuleModel): string {
  return rule.key ?? `r${rule.id}`
}

function nodeKeyOf(node: NodeModel): string {
  return node.key ?? `n${node.id}`
}

function walk(nodes: NodeModel[], visit: (node: NodeModel) => void): void {
  for (const node of nodes) {
    visit(node)
    walk(node.children, visit)
  }
}

function portableNode(node: NodeModel, names: Names): PortableNode {
  const out: Partial<PortableNode> & { key: string; type: PortableNode['type'] } = { key: nodeKeyOf(node), type: node.type }
  if (node.expression !== undefined) out.expression = node.expression
  if (node.variable !== undefined) out.variable = node.variable
  if (node.headline !== undefined) out.headline = node.headline
  if (node.text !== undefined) out.text = node.text
  if (node.question !== undefined) out.question = node.question
  if (node.calledRuleId !== undefined) {
    const called = names.ruleKeys.get(node.calledRuleId)
    // A call of a rule that no longer exists keeps a key no rule has: the import reports it, as the editor does.
    out.calledRule = called ? { rule: called.key, name: called.name, ...(called.adviceSet ? { adviceSet: called.adviceSet } : {}) } : { rule: `r${node.calledRuleId}` }
  }
  if (node.apiId !== undefined) out.api = names.apiNames.get(node.apiId) ?? `API ${node.apiId}`
  if (node.tags && node.tags.length > 0) out.tags = [...node.tags]
  const { own, supplementIds } = splitSources(node.sources ?? [])
  if (own.length > 0) out.sources = own.map((s) => ({ id: s.id, name: s.name, ...(s.uri !== undefined ? { uri: s.uri } : {}) }))
  const keys = supplementIds.map((id) => names.supplementKeys.get(id)).filter((k): k is string => k !== undefined)
  if (keys.length > 0) out.supplements = keys
  out.children = node.children.map((child) => portableNode(child, names))
  return out as PortableNode
}

function portableRule(rule: RuleModel, names: Names): PortableRule {
  return { key: ruleKeyOf(rule), name: rule.name, onlyWhenCalled: rule.onlyWhenCalled === true, nodes: rule.nodes.map((n) => portableNode(n, names)) }
}

function portableEntry(entity: EntityModel, row: EntityRow | undefined): PortableEntry {
  return {
    name: entity.name, kind: entity.kind, dataType: entity.dataType ?? null, options: entity.options ?? [], isClosedSet: entity.isClosedSet === true,
    displayFormat: entity.displayFormat ?? null, defaultValue: entity.defaultValue ?? null, expression: entity.expression ?? null,
    isConstant: entity.isConstant === true, personal: row?.personal === true, description: entity.description ?? '',
    scope: row && row.adviceSetId === null ? 'owner' : 'set',
  }
}

function byName<T extends { name: string }>(a: T, b: T): number {
  const x = a.name.toLowerCase()
  const y = b.name.toLowerCase()
  return x < y ? -1 : x > y ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0
}

function portableApi(row: ExternalApiRow): PortableExternalApi {
  return {
    name: row.name, method: row.method, urlTemplate: row.urlTemplate,
    // A secret's value never leaves the instance: the file names it, and the import asks for it.
    headers: row.headers.map((h) => (h.secret ? { name: h.name, value: null, secret: true, placeholder: `${row.name}: ${h.name}` } : { name: h.name, value: h.value, secret: false })),
    bodyTemplate: row.bodyTemplate, timeoutMs: row.timeoutMs, responseMapping: row.responseMapping.map((m) => ({ path: m.path, variable: m.variable, dataType: m.dataType })),
    cacheTtlSeconds: row.cacheTtlSeconds, sampleResponse: row.sampleResponse,
  }
}

function filePathOf(key: string, row: SupplementRow): string | null {
  return row.storageKey === null ? null : `files/${key}${row.fileExt ? `.${row.fileExt}` : ''}`
}

function portableSupplement(key: string, row: SupplementRow): PortableSupplement {
  return {
    key, name: row.name, type: row.type, format: row.format, contentType: row.contentType, fileExt: row.fileExt, size: row.size,
    description: row.description, url: row.url, imageUrl: row.imageUrl, file: filePathOf(key, row),
  }
}

/** A name for the downloaded file: letters, digits and dashes of the set's name, and the version. */
export function exportFileName(setName: string, versionNumber: number | null, ext: 'json' | 'zip'): string {
  const base = setName.normalize('NFKD').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '').toLowerCase().slice(0, 80) || 'advice-set'
  return `${base}${versionNumber === null ? '' : `-v${versionNumber}`}.${ext}`
}

async function documentOf(db: Db, set: AdviceSetRow, model: AdviceSetModel, fields: { name: string; nameAlt: string; description: string }, version: AdviceSetDocument['version']): Promise<ExportedSet> {
  // Supplements: those linked to the set, then to nodes in tree order; each gets the key s1, s2, … in that order.
  const setLinks = await listLinkedSupplements(db, 'adviceSet', set.id)
  const nodeSupplementIds: number[] = []
  for (const rule of model.rules) walk(rule.nodes, (node) => nodeSupplementIds.push(...splitSources(node.sources ?? []).supplementIds))
  const supplementRows = new Map((await supplementRowsByIds(db, nodeSupplementIds)).map((row) => [row.id, row]))
  for (const row of setLinks) supplementRows.set(row.id, row)
  const supplementKeys = new Map<number, string>()
  const ordered: SupplementRow[] = []
  for (const id of [...setLinks.map((r) => r.id), ...nodeSupplementIds]) {
    const row = supplementRows.get(id)
    if (!row || supplementKeys.has(id)) continue
    supplementKeys.set(id, `s${supplementKeys.size + 1}`)
    ordered.push(row)
  }

  const ruleKeys = new Map<string, { key: string; name: string; adviceSet?: string }>()
  for (const rule of model.rules) ruleKeys.set(rule.id, { key: ruleKeyOf(rule), name: rule.name })
  const calledElsewhere: number[] = []
  for (const rule of model.rules) walk(rule.nodes, (node) => { if (node.calledRuleId && !ruleKeys.has(node.calledRuleId)) calledElsewhere.push(Number(node.calledRuleId)) })
  for (const row of await ruleKeysByIds(db, calledElsewhere.filter(Number.isSafeInteger))) {
    ruleKeys.set(String(row.id), { key: row.key, name: row.name, ...(row.adviceSetId === set.id ? {} : { adviceSet: row.adviceSetName }) })
  }

  const scenarios = await findScenariosOfSet(db, set.id)
  const apiIds = new Set<number>()
  for (const rule of model.rules) walk(rule.nodes, (node) => { if (node.apiId && /^\d+$/.test(node.apiId)) apiIds.add(Number(node.apiId)) })
  for (const s of scenarios) for (const id of Object.keys(s.pinnedResponses)) if (/^\d+$/.test(id)) apiIds.add(Number(id))
  const apis = (await findOwnerExternalApis(db, set.ownerId, [...apiIds])).sort((a, b) => byName(a, b) || a.id - b.id)
  const apiNames = new Map(apis.map((api) => [String(api.id), api.name]))

  const nodeKeys = new Map<string, string>()
  for (const row of await listSetNodesEver(db, set.id)) nodeKeys.set(String(row.id), row.key)
  for (const rule of model.rules) walk(rule.nodes, (node) => nodeKeys.set(node.id, nodeKeyOf(node)))
  // A scenario may expect advice (or be asked next) by a rule it calls in another set: that node is named by its key too.
  const foreign = new Set<number>()
  for (const s of scenarios) for (const id of [...s.expected.advice, s.expected.focus]) if (!nodeKeys.has(id) && /^\d{1,15}$/.test(id)) foreign.add(Number(id))
  for (const row of await nodeKeysByIds(db, [...foreign])) nodeKeys.set(String(row.id), row.key)
  const names: Names = { ruleKeys, nodeKeys, apiNames, supplementKeys }

  const entityRows = new Map((await entityRowsByIds(db, model.entities.map((e) => Number(e.id)).filter(Number.isSafeInteger))).map((row) => [String(row.id), row]))
  const byEntryName = new Map((await dictionaryFor(db, set)).map((row) => [row.reservedName.toLowerCase(), row]))
  const dictionary = [...model.entities].sort(byName).map((entity) => portableEntry(entity, entityRows.get(entity.id) ?? byEntryName.get(entity.name.toLowerCase())))

  const scenarioNames = new Map(scenarios.map((s) => [s.id, s.name]))
  const keywordMaps = (await listKeywordMaps(db, { ownerIds: [set.ownerId], adviceSetId: set.id, limit: 10_000 }))
    .map(({ map }) => ({ name: map.name, phrases: [...map.phrases], scenario: map.scenarioId === null ? null : scenarioNames.get(map.scenarioId) ?? null }))
  const tags = await findTagsByIds(db, (await tagIdsFor(db, ENTITY_ADVICE_SET, [set.id])).get(set.id) ?? [])

  const portableScenarios: PortableScenario[] = scenarios.map((s) => ({
    name: s.name, description: s.description, inputs: s.inputs, runAsOf: s.runAsOf,
    expected: {
      advice: s.expected.advice.map((id) => nodeKeys.get(id) ?? id),
      focus: s.expected.focus === 'complete' ? 'complete' : nodeKeys.get(s.expected.focus) ?? s.expected.focus,
      variables: s.expected.variables,
    },
    pinnedResponses: Object.fromEntries(Object.entries(s.pinnedResponses).map(([id, pinned]) => [apiNames.get(id) ?? id, { status: pinned.status, body: pinned.body }])),
  }))

  const document: AdviceSetDocument = {
    format: FORMAT_NAME,
    adviceSet: {
      name: fields.name, nameAlt: fields.nameAlt, description: fields.description, category: await categoryName(db, set.categoryId), isPublic: set.isPublic,
      tags: tags.map((t) => t.slug).sort(), supplements: setLinks.map((row) => supplementKeys.get(row.id)!),
    },
    version,
    dictionary,
    rules: model.rules.map((rule) => portableRule(rule, names)),
    scenarios: portableScenarios,
    keywordMaps,
    externalApis: apis.map(portableApi),
    supplements: ordered.map((row) => portableSupplement(supplementKeys.get(row.id)!, row)),
  }
  const files = new Map<string, SupplementRow>()
  for (const row of ordered) {
    const path = filePathOf(supplementKeys.get(row.id)!, row)
    if (path) files.set(path, row)
  }
  return { document, files, fileName: exportFileName(fields.name, version?.number ?? null, 'json') }
}

/**
 * The set's working draft, or its version number `versionNumber` as published. Only the set's own team (and provider
 * admins) export: a file holds its scenarios, keyword maps and API definitions, which are the team's.
 */
export async function exportAdviceSet(deps: Deps, actor: Actor, adviceSetId: number, opts: { versionNumber?: number } = {}): Promise<ExportedSet> {
  const set = await teamSet(deps.db, actor, adviceSetId)
  if (opts.versionNumber === undefined) {
    const model = await buildAdviceSetModel(deps.db, set.id)
    return documentOf(deps.db, set, { ...model, entities: entitiesInUse(model) }, set, null)
  }
  const version = await findVersionByNumber(deps.db, set.id, opts.versionNumber)
  const snapshot = version.snapshot as VersionSnapshot
  return documentOf(deps.db, set, snapshot.model, snapshot.adviceSet, {
    number: version.number, publishedAt: version.publishedAt?.toISOString() ?? null, contentHash: version.contentHash,
  })
}

async function findVersionByNumber(db: Db, adviceSetId: number, number: number) {
  const summary = (await listVersions(db, adviceSetId)).find((v) => v.number === number)
  const version = summary ? await findVersion(db, summary.id) : undefined
  if (!version) throw new NotFoundError(`version: this advice set has no version ${number}.`)
  return version
}

/** The ZIP form: the document as set.json and each supplement file under files/, read from the file store as it is sent. */
export async function zipOf(deps: Deps, exported: ExportedSet): Promise<Readable> {
  const files = new Map<string, Readable>()
  for (const [path, row] of exported.files) {
    const stored = row.storageKey === null ? null : await deps.files.read(row.storageKey)
    // A file gone from the store leaves its entry out; the document still describes the supplement.
    if (stored) files.set(path.slice('files/'.length), stored.stream)
  }
  return writePortableZip(documentText(exported.document), files)
}
