// Import of an `advice-set@1` document (issue 28): as a new set, or into an existing one as one change of its working
// draft. Everything is checked first (portable-import-plan.ts); a dry run returns that plan, an import with any error
// is refused with all of them, and the import itself is one transaction: an error on the way writes nothing. After it
// the set's scenarios run on the working draft, the proof that the behaviour came across.
import { randomUUID } from 'node:crypto'
import { Readable } from 'node:stream'
import type { Db } from '../../db/client.ts'
import { findAdviceSet, insertAdviceSet, setTagLinks, updateAdviceSet, type AdviceSetRow } from '../../db/queries/advice-sets.ts'
import { insertEntity, updateEntity } from '../../db/queries/entities.ts'
import { insertExternalApi } from '../../db/queries/external-apis.ts'
import { insertKeywordMap, listKeywordMaps, updateKeywordMap } from '../../db/queries/keyword-maps.ts'
import { listSetNodesEver } from '../../db/queries/rule-nodes.ts'
import { lockAdviceSetRow } from '../../db/queries/rules.ts'
import { findScenariosOfSet, insertScenario, updateScenario } from '../../db/queries/scenarios.ts'
import { recordIndexTask } from '../../db/queries/search.ts'
import { findLink, insertLink, insertSupplement, type SupplementRow } from '../../db/queries/supplements.ts'
import { ENTITY_TYPES, type NodeModel, type RuleModel, type SourceRef } from '../../engine/index.ts'
import { audit } from '../audit/audit.ts'
import type { Actor, Deps } from '../context.ts'
import { ValidationError } from '../errors.ts'
import { fileKindOf } from '../files/kinds.ts'
import { auditView, createLinkSupplement, ENTITY_SUPPLEMENT, newAccessToken } from '../files/supplements.ts'
import { MAX_UPLOAD_BYTES } from '../files/uploads.ts'
import { sealHeaders } from '../integrations/api-definition.ts'
import { ENTITY_EXTERNAL_API } from '../integrations/external-apis.ts'
import { writeDraftRules } from '../publishing/restore.ts'
import { snapshotAdviceSet, type VersionSnapshot } from '../publishing/snapshot.ts'
import { assertWritable } from '../accounts/visibility.ts'
import { NotFoundError } from '../errors.ts'
import { ENTITY_SCENARIO, scenarioSnapshot } from '../scenarios/access.ts'
import { runScenarios, type RunCounts } from '../scenarios/runs.ts'
import { ENTITY_ADVICE_SET } from './advice-sets.ts'
import { ENTITY_KEYWORD_MAP } from './keyword-maps.ts'
import type { AdviceSetDocument, PortableNode } from './portable-format.ts'
import { planImport, type ImportIssue, type ImportPlan, type ResolvedImport } from './portable-import-plan.ts'

export type { ImportIssue, ImportPlan }

export interface ImportResult {
  plan: ImportPlan
  adviceSet: { id: number; name: string; uri: string }
  /** The set's scenarios run on the working draft after the import. */
  scenarios: { counts: RunCounts; results: Array<{ name: string; status: string }> }
}

/** Refused import: every error of the plan, each at its JSON pointer. */
export class ImportRefusedError extends ValidationError {
  constructor(readonly plan: ImportPlan) {
    const first = plan.errors[0]!
    super('file', plan.errors.length === 1 ? first.message : `${first.message} (and ${plan.errors.length - 1} more problems)`)
    this.details = { field: 'file', errors: plan.errors, warnings: plan.warnings }
  }
}

const ENTITY_DICTIONARY = 'entity'
/** The activity log's name for an import into a set's working draft (its entity id is the set's). */
export const ENTITY_SET_IMPORT = 'advicesetimport'

/** What the activity row of an import into a set keeps of the draft it replaced. */
export interface SetImportSnapshot { id: number; name: string; draft: VersionSnapshot }

/** The document's rules as the draft writer takes them: ids are `key:<key>`, references resolved to rows. */
function ruleModelsOf(doc: AdviceSetDocument, resolved: ResolvedImport, supplementIds: Map<string, number>, apiIds: Map<string, number>): RuleModel[] {
  const nodeOf = (node: PortableNode): NodeModel => {
    const out: NodeModel = { id: `key:${node.key}`, key: node.key, type: node.type, children: node.children.map(nodeOf) }
    if (node.expression !== undefined) out.expression = node.expression
    if (node.variable !== undefined) out.variable = node.variable
    if (node.headline !== undefined) out.headline = node.headline
    if (node.text !== undefined) out.text = node.text
    if (node.question !== undefined) out.question = node.question
    if (node.calledRule) {
      const { adviceSet, rule } = node.calledRule
      out.calledRuleId = adviceSet === undefined ? `key:${rule}` : String(resolved.externalRules.get(`${adviceSet}\u0000${rule}`))
    }
    if (node.api !== undefined) out.apiId = String(apiIds.get(node.api))
    if (node.tags) out.tags = node.tags
    const sources: SourceRef[] = [...(node.sources ?? [])]
    for (const key of node.supplements ?? []) {
      const id = supplementIds.get(key)
      if (id !== undefined) sources.push({ id: `supplement-${id}`, name: key })
    }
    if (sources.length > 0) out.sources = sources
    return out
  }
  return doc.rules.map((rule) => ({ id: `key:${rule.key}`, key: rule.key, name: rule.name, adviceSetId: '', onlyWhenCalled: rule.onlyWhenCalled, nodes: rule.nodes.map(nodeOf) }))
}

async function writeDictionary(tx: Db, actor: Actor, set: AdviceSetRow, doc: AdviceSetDocument, resolved: ResolvedImport): Promise<void> {
  for (const entry of doc.dictionary) {
    const fields = {
      dataType: entry.dataType, validOptions: entry.options, isClosedSet: entry.isClosedSet, displayFormat: entry.displayFormat, defaultValue: entry.defaultValue ?? null,
      expression: entry.expression, isConstant: entry.isConstant, personal: entry.personal, description: entry.description,
    }
    const existing = resolved.existingEntries.get(entry.name.toLowerCase())
    if (existing && existing.adviceSetId === set.id) {
      const updated = await updateEntity(tx, existing.id, { ...fields, updatedBy: actor.userId })
      await audit(tx, actor, { ownerId: set.ownerId, action: 'update', entityType: ENTITY_DICTIONARY, entityId: updated.id, before: { id: existing.id, name: existing.reservedName, reservedName: existing.reservedName, parentId: existing.adviceSetId }, after: { id: updated.id, name: updated.reservedName, reservedName: updated.reservedName, parentId: updated.adviceSetId, imported: true } })
      continue
    }
    if (existing) continue
    const created = await insertEntity(tx, {
      ownerId: set.ownerId, adviceSetId: entry.scope === 'owner' ? null : set.id, entityTypeId: entry.kind === 'formula' ? ENTITY_TYPES.formula.id : ENTITY_TYPES.variable.id,
      reservedName: entry.name, ...fields, createdBy: actor.userId,
    })
    await audit(tx, actor, { ownerId: set.ownerId, action: 'create', entityType: ENTITY_DICTIONARY, entityId: created.id, after: { id: created.id, name: created.reservedName, reservedName: created.reservedName, parentId: created.adviceSetId, imported: true } })
  }
}

async function writeApis(deps: Deps, tx: Db, actor: Actor, ownerId: string, doc: AdviceSetDocument, resolved: ResolvedImport): Promise<Map<string, number>> {
  const ids = new Map<string, number>()
  for (const api of doc.externalApis) {
    const found = resolved.apis.get(api.name)
    if (found) { ids.set(api.name, found.id); continue }
    const row = await insertExternalApi(tx, {
      name: api.name, method: api.method, urlTemplate: api.urlTemplate, bodyTemplate: api.bodyTemplate, timeoutMs: api.timeoutMs, responseMapping: api.responseMapping,
      cacheTtlSeconds: api.cacheTtlSeconds, sampleResponse: api.sampleResponse,
      // A secret's value never travels in a file: it is stored empty, and the import's warnings say to enter it.
      headers: sealHeaders(api.headers.map((h) => ({ name: h.name, value: h.secret ? '' : h.value ?? '', secret: h.secret })), deps.config.secretKey),
      ownerId, createdBy: actor.userId,
    })
    await audit(tx, actor, { ownerId, action: 'create', entityType: ENTITY_EXTERNAL_API, entityId: row.id, after: { id: row.id, name: row.name, imported: true } })
    ids.set(api.name, row.id)
  }
  return ids
}

/** A file of the ZIP form, stored before the transaction (the store is not transactional): deleted again if it fails. */
interface StoredUpload { key: string; size: number; contentType: string; fileExt: string; format: SupplementRow['format'] }

/** Stores the ZIP's files that the import creates supplements for, typed from their bytes as any upload is. */
async function storeFiles(deps: Deps, doc: AdviceSetDocument, resolved: ResolvedImport, files: ReadonlyMap<string, Buffer>): Promise<Map<string, StoredUpload>> {
  const stored = new Map<string, StoredUpload>()
  try {
    for (const supplement of doc.supplements) {
      const path = supplement.file?.startsWith('files/') ? supplement.file.slice('files/'.length) : null
      const bytes = path === null ? undefined : files.get(path)
      if (resolved.supplements.has(supplement.key) || supplement.format === 'link' || !bytes) continue
      const staged = await deps.files.stage(Readable.from([bytes]), { maxBytes: MAX_UPLOAD_BYTES })
      const kind = await fileKindOf(staged.head, path!)
      const key = `supplements/${randomUUID()}${kind.fileExt ? `.${kind.fileExt}` : ''}`
      await staged.commit(key, kind.contentType)
      stored.set(supplement.key, { key, size: staged.size, contentType: kind.contentType, fileExt: kind.fileExt, format: kind.format })
    }
    return stored
  } catch (error) {
    await Promise.all([...stored.values()].map((file) => deps.files.delete(file.key)))
    throw error
  }
}

async function writeSupplements(deps: Deps, tx: Db, actor: Actor, ownerId: string, doc: AdviceSetDocument, resolved: ResolvedImport, stored: Map<string, StoredUpload>): Promise<Map<string, number>> {
  const ids = new Map(resolved.supplements)
  for (const supplement of doc.supplements) {
    if (ids.has(supplement.key)) continue
    const file = stored.get(supplement.key)
    if (file) {
      const row = await insertSupplement(tx, {
        ownerId, name: supplement.name, type: supplement.type, description: supplement.description, format: file.format, source: deps.files.kind === 's3' ? 'S3' : 'tf',
        contentType: file.contentType, fileExt: file.fileExt, size: file.size, storageKey: file.key, url: null, imageUrl: null, accessToken: newAccessToken(), createdBy: actor.userId,
      })
      await audit(tx, actor, { ownerId, action: 'create', entityType: ENTITY_SUPPLEMENT, entityId: row.id, after: auditView(row) })
      ids.set(supplement.key, row.id)
    } else if (supplement.format === 'link' && supplement.url) {
      const row = await createLinkSupplement(deps, actor, { url: supplement.url, name: supplement.name, imageUrl: supplement.imageUrl ?? undefined, type: supplement.type, description: supplement.description }, tx)
      ids.set(supplement.key, row.id)
    }
  }
  return ids
}

async function writeScenarios(tx: Db, actor: Actor, set: AdviceSetRow, doc: AdviceSetDocument, nodeIds: Map<string, number>, apiIds: Map<string, number>): Promise<Map<string, number>> {
  const existing = new Map((await findScenariosOfSet(tx, set.id)).map((s) => [s.name, s]))
  const ids = new Map<string, number>()
  for (const scenario of doc.scenarios) {
    const fields = {
      name: scenario.name, description: scenario.description, inputs: scenario.inputs, runAsOf: scenario.runAsOf,
      expected: {
        advice: scenario.expected.advice.map((key) => String(nodeIds.get(key))),
        focus: scenario.expected.focus === 'complete' ? 'complete' : String(nodeIds.get(scenario.expected.focus)),
        variables: scenario.expected.variables,
      },
      pinnedResponses: Object.fromEntries(Object.entries(scenario.pinnedResponses).map(([name, pinned]) => [String(apiIds.get(name)), pinned])),
    }
    const before = existing.get(scenario.name)
    const row = before ? await updateScenario(tx, before.id, { ...fields, updatedBy: actor.userId }) : await insertScenario(tx, { adviceSetId: set.id, ...fields, createdBy: actor.userId })
    await audit(tx, actor, { ownerId: set.ownerId, action: before ? 'update' : 'create', entityType: ENTITY_SCENARIO, entityId: row.id, ...(before ? { before: scenarioSnapshot(before) } : {}), after: scenarioSnapshot(row) })
    ids.set(scenario.name, row.id)
  }
  return ids
}

async function writeKeywordMaps(tx: Db, actor: Actor, set: AdviceSetRow, doc: AdviceSetDocument, scenarioIds: Map<string, number>): Promise<void> {
  const existing = new Map((await listKeywordMaps(tx, { ownerIds: [set.ownerId], adviceSetId: set.id, limit: 10_000 })).map(({ map }) => [map.name, map]))
  for (const map of doc.keywordMaps) {
    const fields = { name: map.name, phrases: map.phrases, adviceSetId: set.id, scenarioId: map.scenario === null ? null : scenarioIds.get(map.scenario) ?? null }
    const before = existing.get(map.name)
    const row = before ? await updateKeywordMap(tx, before.id, { ...fields, updatedBy: actor.userId }) : await insertKeywordMap(tx, { ...fields, ownerId: set.ownerId, createdBy: actor.userId })
    await audit(tx, actor, { ownerId: set.ownerId, action: before ? 'update' : 'create', entityType: ENTITY_KEYWORD_MAP, entityId: row.id, ...(before ? { before: { ...before } } : {}), after: { ...row } })
  }
}

/** The node ids of the set's live nodes by key, after the draft was written, and of the called sets' nodes scenarios name. */
async function nodeIdsByKey(tx: Db, adviceSetId: number, external: ReadonlyMap<string, number>): Promise<Map<string, number>> {
  const ids = new Map(external)
  for (const n of await listSetNodesEver(tx, adviceSetId)) if (n.deletedAt === null) ids.set(n.key, n.id)
  return ids
}

async function apply(deps: Deps, actor: Actor, doc: AdviceSetDocument, resolved: ResolvedImport, stored: Map<string, StoredUpload>): Promise<AdviceSetRow> {
  return deps.db.transaction(async (tx) => {
    const now = new Date()
    const fields = { name: doc.adviceSet.name, nameAlt: doc.adviceSet.nameAlt, description: doc.adviceSet.description, categoryId: resolved.categoryId, isPublic: doc.adviceSet.isPublic }
    let set: AdviceSetRow
    let previous: VersionSnapshot | null = null
    if (resolved.set) {
      set = resolved.set
      await lockAdviceSetRow(tx, set.id)
      previous = await snapshotAdviceSet(tx, set.id)
      set = await updateAdviceSet(tx, set.id, { ...fields, updatedBy: actor.userId })
    } else {
      set = await insertAdviceSet(tx, { ...fields, ownerId: resolved.ownerId, isStarter: false, createdBy: actor.userId })
    }
    await writeDictionary(tx, actor, set, doc, resolved)
    const apiIds = await writeApis(deps, tx, actor, set.ownerId, doc, resolved)
    const supplementIds = await writeSupplements(deps, tx, actor, set.ownerId, doc, resolved, stored)
    const { live, nodes } = await writeDraftRules(tx, actor, set, ruleModelsOf(doc, resolved, supplementIds, apiIds), now)
    for (const key of doc.adviceSet.supplements) {
      const supplementId = supplementIds.get(key)
      if (supplementId !== undefined && !(await findLink(tx, { supplementId, targetType: 'adviceSet', targetId: set.id }))) {
        await insertLink(tx, { supplementId, targetType: 'adviceSet', targetId: set.id, createdBy: actor.userId })
      }
    }
    await setTagLinks(tx, ENTITY_ADVICE_SET, set.id, resolved.tagIds)
    const scenarioIds = await writeScenarios(tx, actor, set, doc, await nodeIdsByKey(tx, set.id, resolved.externalNodes), apiIds)
    if (resolved.importKeywordMaps) await writeKeywordMaps(tx, actor, set, doc, scenarioIds)
    const summary = { rules: doc.rules.length, nodes, scenarios: doc.scenarios.length, format: doc.format, ...(doc.version ? { fromVersion: doc.version.number } : {}) }
    // A new set is one `create` (restoring it deletes the set); an import into a set is one change of its draft, kept
    // with the draft as it was, which restoring the entry writes back.
    await audit(tx, actor, previous
      ? { ownerId: set.ownerId, action: 'update', entityType: ENTITY_SET_IMPORT, entityId: set.id, before: { id: set.id, name: previous.adviceSet.name, draft: previous, replacedRules: live.map((r) => ({ id: r.id, name: r.name })) }, after: { id: set.id, name: set.name, imported: summary } }
      : { ownerId: set.ownerId, action: 'create', entityType: ENTITY_ADVICE_SET, entityId: set.id, after: { id: set.id, name: set.name, imported: summary } })
    await recordIndexTask(tx, ENTITY_ADVICE_SET, String(set.id))
    return set
  })
}

/** The dry run: what an import of `document` would do, and every problem found. Nothing is written. */
export async function dryRunImport(deps: Deps, actor: Actor, document: unknown, opts: { into?: number; files?: ReadonlyMap<string, Buffer> } = {}): Promise<ImportPlan> {
  return (await planImport(deps.db, actor, document, opts)).plan
}

export async function importAdviceSet(deps: Deps, actor: Actor, document: unknown, opts: { into?: number; files?: ReadonlyMap<string, Buffer> } = {}): Promise<ImportResult> {
  const { plan, doc, resolved } = await planImport(deps.db, actor, document, opts)
  if (plan.errors.length > 0 || !doc || !resolved) throw new ImportRefusedError(plan)
  const stored = await storeFiles(deps, doc, resolved, opts.files ?? new Map())
  let set: AdviceSetRow
  try {
    set = await apply(deps, actor, doc, resolved, stored)
  } catch (error) {
    await Promise.all([...stored.values()].map((file) => deps.files.delete(file.key)))
    throw error
  }
  const batch = await runScenarios(deps, actor, { adviceSetId: set.id, source: 'draft' })
  return {
    plan, adviceSet: { id: set.id, name: set.name, uri: `/adviceset/${set.id}/show` },
    scenarios: { counts: batch.counts, results: batch.results.map((r) => ({ name: r.name, status: r.status })) },
  }
}

/**
 * Restoring the activity entry of an import into a set: the draft as it was before (its rules and trees, paired by
 * key, and the set's name, display name and description) becomes the working draft again, as one change.
 */
export async function restoreSetImport(deps: Deps, actor: Actor, adviceSetId: number, before: SetImportSnapshot | null): Promise<void> {
  if (!before?.draft?.model) throw new ValidationError('id', 'This import made a new advice set: restore by deleting that set instead.')
  const found = await findAdviceSet(deps.db, adviceSetId)
  if (!found) throw new NotFoundError('No advice set with this id')
  assertWritable(actor, found)
  await deps.db.transaction(async (tx) => {
    await lockAdviceSetRow(tx, found.id)
    const current = await snapshotAdviceSet(tx, found.id)
    const { adviceSet } = before.draft
    const set = await updateAdviceSet(tx, found.id, { name: adviceSet.name, nameAlt: adviceSet.nameAlt, description: adviceSet.description, updatedBy: actor.userId })
    const { live, nodes } = await writeDraftRules(tx, actor, set, before.draft.model.rules, new Date())
    await audit(tx, actor, {
      ownerId: set.ownerId, action: 'restore', entityType: ENTITY_SET_IMPORT, entityId: set.id,
      before: { id: set.id, name: current.adviceSet.name, draft: current, replacedRules: live.map((r) => ({ id: r.id, name: r.name })) },
      after: { id: set.id, name: set.name, restoredRules: before.draft.model.rules.length, nodes },
    })
    await recordIndexTask(tx, ENTITY_ADVICE_SET, String(set.id))
  })
}
