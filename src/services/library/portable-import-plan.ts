// The first step of importing an `advice-set@1` document (issue 28): everything is checked before anything is written,
// and what the import would do is worked out. The dry run shows this plan; the import writes it (portable-import.ts)
// only when it holds no error. Each problem names the JSON pointer of what it is about.
import { Compile } from 'typebox/compile'
import type { Db } from '../../db/client.ts'
import { findAdviceSet, listCategories, listTags, type AdviceSetRow } from '../../db/queries/advice-sets.ts'
import { listEntities, type EntityRow } from '../../db/queries/entities.ts'
import { listExternalApis, type ExternalApiRow } from '../../db/queries/external-apis.ts'
import { findNodesByKeys, findRuleByKey, matchingSupplements } from '../../db/queries/portable.ts'
import { listSetNodesEver } from '../../db/queries/rule-nodes.ts'
import { listRules } from '../../db/queries/rules.ts'
import { findScenariosOfSet } from '../../db/queries/scenarios.ts'
import { listKeywordMaps } from '../../db/queries/keyword-maps.ts'
import { ENTITY_TYPES, EngineError, NAME_PATTERN } from '../../engine/index.ts'
import { dictionaryFor } from '../authoring/advice-set-model.ts'
import { checkExpression, NODE_TAG_SLUGS } from '../authoring/rule-nodes.ts'
import { canCreate, canReadSet, assertWritable } from '../accounts/visibility.ts'
import { PROVIDER_OWNER_ID, type Actor } from '../context.ts'
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.ts'
import { checkDefinition } from '../integrations/api-definition.ts'
import { canWriteExternalApis } from '../integrations/external-apis.ts'
import { canManageKeywordMaps } from './keyword-maps.ts'
import { AdviceSetDocument, type PortableEntry, type PortableNode } from './portable-format.ts'

/** A problem (an error stops the import; a warning does not), at a JSON pointer of the document. */
export interface ImportIssue { pointer: string; message: string; line?: number; column?: number }

export interface ImportPlan {
  /** The set written into (`into`), or null for a new set under `name`. */
  target: { adviceSetId: number | null; name: string }
  rules: { create: string[]; update: string[]; delete: string[] }
  nodes: { create: number; keep: number; delete: number }
  dictionary: { create: string[]; reuse: string[]; update: string[] }
  scenarios: { create: string[]; update: string[] }
  keywordMaps: { create: string[]; update: string[] }
  externalApis: { create: string[]; reuse: string[] }
  supplements: { create: string[]; reuse: string[]; leftOut: string[] }
  errors: ImportIssue[]
  warnings: ImportIssue[]
}

/** What the writing step needs besides the document: the rows the plan matched. */
export interface ResolvedImport {
  set: AdviceSetRow | null
  ownerId: string
  /** Entries the document's names mean in the target: reused (another's, or the set's own to update), by lower-case name. */
  existingEntries: Map<string, EntityRow>
  apis: Map<string, ExternalApiRow>
  /** Rule Calls of other sets' rules: `${setName}\u0000${key}` → rule id. */
  externalRules: Map<string, number>
  /** Nodes of the sets the document calls that its scenarios name (advice given or asked next by a called rule): key → id. */
  externalNodes: Map<string, number>
  /** Document supplement key → an existing supplement id. */
  supplements: Map<string, number>
  categoryId: number | null
  tagIds: number[]
  importKeywordMaps: boolean
}

const validator = Compile(AdviceSetDocument)

function escapePointer(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1')
}

/** The schema's complaints, one per place, in words a person acts on. */
function schemaIssues(value: unknown): ImportIssue[] {
  const seen = new Set<string>()
  const issues: ImportIssue[] = []
  for (const error of validator.Errors(value)) {
    const params = error.params as Record<string, unknown>
    let pointer = error.instancePath
    let message = error.message
    if (error.keyword === 'required') {
      const missing = String((params.requiredProperties as string[] | undefined)?.[0] ?? params.missingProperty ?? '')
      message = 'is required'
      if (missing) pointer = `${pointer}/${escapePointer(missing)}`
    } else if (error.keyword === 'additionalProperties') {
      const extra = (params.additionalProperties as string[] | undefined)?.[0] ?? String(params.additionalProperty ?? '')
      pointer = `${pointer}/${escapePointer(extra)}`
      message = 'is not a field of this format'
    } else if (error.keyword === 'enum') {
      message = `must be one of ${(params.allowedValues as unknown[]).join(', ')}`
    } else if (error.keyword === 'const') {
      message = `must be ${JSON.stringify(params.allowedValue)}`
    }
    if (seen.has(pointer)) continue
    seen.add(pointer)
    issues.push({ pointer: pointer || '/', message: `${pointer || 'The document'}: ${message}.` })
    if (issues.length >= 50) break
  }
  return issues
}

function walkNodes(nodes: PortableNode[], base: string, visit: (node: PortableNode, pointer: string) => void): void {
  nodes.forEach((node, i) => {
    const pointer = `${base}/${i}`
    visit(node, pointer)
    walkNodes(node.children, `${pointer}/children`, visit)
  })
}

function kindLabel(kind: 'variable' | 'formula', dataType: string | null): string {
  return `a ${kind}${dataType ? ` (${dataType})` : ''}`
}

function sameDefinition(entry: PortableEntry, row: EntityRow): boolean {
  return JSON.stringify([entry.options, entry.isClosedSet, entry.displayFormat, entry.defaultValue, entry.expression, entry.isConstant])
    === JSON.stringify([row.validOptions, row.isClosedSet, row.displayFormat, row.defaultValue ?? null, row.expression, row.isConstant])
}

/** The target set when importing into one: it must exist and be the actor's to write. */
async function targetSet(db: Db, actor: Actor, into: number | undefined): Promise<AdviceSetRow | null> {
  if (into === undefined) {
    if (!canCreate(actor)) throw new ForbiddenError('Only authors and admins import advice sets.')
    return null
  }
  const set = await findAdviceSet(db, into)
  if (!set || !canReadSet(actor, set)) throw new NotFoundError(`into: there is no advice set ${into}.`)
  assertWritable(actor, set)
  return set
}

export async function planImport(db: Db, actor: Actor, document: unknown, opts: { into?: number; files?: ReadonlyMap<string, Buffer> }): Promise<{ plan: ImportPlan; resolved: ResolvedImport | null; doc: AdviceSetDocument | null }> {
  const set = await targetSet(db, actor, opts.into)
  const plan: ImportPlan = {
    target: { adviceSetId: set?.id ?? null, name: set?.name ?? '' },
    rules: { create: [], update: [], delete: [] }, nodes: { create: 0, keep: 0, delete: 0 },
    dictionary: { create: [], reuse: [], update: [] }, scenarios: { create: [], update: [] }, keywordMaps: { create: [], update: [] },
    externalApis: { create: [], reuse: [] }, supplements: { create: [], reuse: [], leftOut: [] }, errors: [], warnings: [],
  }
  const schemaErrors = schemaIssues(document)
  if (schemaErrors.length > 0) {
    plan.errors.push(...schemaErrors)
    return { plan, resolved: null, doc: null }
  }
  const doc = document as AdviceSetDocument
  const ownerId = set?.ownerId ?? actor.ownerId
  const error = (pointer: string, message: string) => plan.errors.push({ pointer, message: `${pointer}: ${message}` })
  const warn = (pointer: string, message: string) => plan.warnings.push({ pointer, message: `${pointer}: ${message}` })
  plan.target.name = set?.name ?? doc.adviceSet.name

  // Keys: a rule's unique in the set, a node's unique in the set (the database holds them per rule; pairing is by set).
  const ruleKeys = new Map<string, string>()
  doc.rules.forEach((rule, i) => {
    if (ruleKeys.has(rule.key)) error(`/rules/${i}/key`, `the rule key “${rule.key}” is already used by ${ruleKeys.get(rule.key)}.`)
    else ruleKeys.set(rule.key, `/rules/${i}`)
  })
  const nodeKeys = new Map<string, PortableNode>()
  const supplementKeys = new Set(doc.supplements.map((s) => s.key))
  const apiNames = new Set(doc.externalApis.map((a) => a.name))
  const calledElsewhere: Array<{ pointer: string; adviceSet: string; rule: string }> = []
  doc.rules.forEach((rule, r) => walkNodes(rule.nodes, `/rules/${r}/nodes`, (node, pointer) => {
    if (nodeKeys.has(node.key)) error(`${pointer}/key`, `the node key “${node.key}” is used twice.`)
    nodeKeys.set(node.key, node)
    const check = (field: 'expression', mode: 'condition' | 'assignment' | 'value') => {
      const source = node[field]
      if (source === undefined || source.trim() === '') { error(`${pointer}/${field}`, `is required for a ${node.type} node.`); return }
      try {
        checkExpression(field, source, mode)
      } catch (e) {
        if (!(e instanceof ValidationError || e instanceof EngineError)) throw e
        error(`${pointer}/${field}`, e.message.replace(/^expression: /, ''))
      }
    }
    if (node.type === 'condition') check('expression', 'condition')
    if (node.type === 'variableAssignment') check('expression', 'assignment')
    if ((node.type === 'inputRequest' || node.type === 'formula' || node.type === 'apiCall') && !(node.variable && NAME_PATTERN.test(node.variable))) {
      error(`${pointer}/variable`, `a ${node.type} node needs the name of a variable or formula.`)
    }
    for (const [i, tag] of (node.tags ?? []).entries()) if (!NODE_TAG_SLUGS.includes(tag)) error(`${pointer}/tags/${i}`, `must be one of ${NODE_TAG_SLUGS.join(', ')}.`)
    if (node.type === 'ruleCall') {
      if (!node.calledRule) error(`${pointer}/calledRule`, 'a ruleCall node names the rule it calls.')
      else if (node.calledRule.adviceSet === undefined) { if (!ruleKeys.has(node.calledRule.rule)) error(`${pointer}/calledRule/rule`, `no rule of this document has the key “${node.calledRule.rule}”.`) }
      else calledElsewhere.push({ pointer: `${pointer}/calledRule`, adviceSet: node.calledRule.adviceSet, rule: node.calledRule.rule })
    }
    if (node.type === 'apiCall' && (!node.api || !apiNames.has(node.api))) error(`${pointer}/api`, `an apiCall node names one of the document’s externalApis${node.api ? `; “${node.api}” is not among them` : ''}.`)
    for (const [i, key] of (node.supplements ?? []).entries()) if (!supplementKeys.has(key)) error(`${pointer}/supplements/${i}`, `no supplement of this document has the key “${key}”.`)
  }))
  for (const [i, key] of doc.adviceSet.supplements.entries()) if (!supplementKeys.has(key)) error(`/adviceSet/supplements/${i}`, `no supplement of this document has the key “${key}”.`)

  const externalRules = new Map<string, number>()
  const looked = new Map<string, { id: number } | undefined>()
  for (const call of calledElsewhere) {
    // Each rule once, however many nodes call it.
    const id = `${call.adviceSet}\u0000${call.rule}`
    if (!looked.has(id)) looked.set(id, await findRuleByKey(db, { ownerId, adviceSetName: call.adviceSet, key: call.rule }))
    const found = looked.get(id)
    if (found) externalRules.set(id, found.id)
    else error(call.pointer, `calls the rule “${call.rule}” of the advice set “${call.adviceSet}”, which this team does not have here. Import that set first.`)
  }

  // Scenarios refer to advice nodes, input requests and APIs of the document, or to nodes of the rules it calls in
  // other sets (what a called rule gives or asks counts in a run).
  const foreignKeys = new Set<string>()
  for (const scenario of doc.scenarios) for (const key of [...scenario.expected.advice, scenario.expected.focus]) if (key !== 'complete' && !nodeKeys.has(key)) foreignKeys.add(key)
  const calledSets = [...new Set(calledElsewhere.map((call) => call.adviceSet))]
  const foreignNodes = new Map<string, { id: number; type: string }>()
  for (const row of await findNodesByKeys(db, { ownerId, adviceSetNames: calledSets, keys: [...foreignKeys] })) if (!foreignNodes.has(row.key)) foreignNodes.set(row.key, row)
  const typeOf = (key: string) => nodeKeys.get(key)?.type ?? foreignNodes.get(key)?.type
  const externalNodes = new Map([...foreignNodes].map(([key, row]) => [key, row.id]))
  const scenarioNames = new Set<string>()
  doc.scenarios.forEach((scenario, i) => {
    if (scenarioNames.has(scenario.name)) error(`/scenarios/${i}/name`, `the scenario name “${scenario.name}” is used twice.`)
    scenarioNames.add(scenario.name)
    scenario.expected.advice.forEach((key, j) => { if (typeOf(key) !== 'advice') error(`/scenarios/${i}/expected/advice/${j}`, `no advice node of this document has the key “${key}”.`) })
    const focus = scenario.expected.focus
    if (focus !== 'complete' && typeOf(focus) !== 'inputRequest') error(`/scenarios/${i}/expected/focus`, `must be "complete" or the key of an inputRequest node; “${focus}” is neither.`)
    for (const name of Object.keys(scenario.pinnedResponses)) if (!apiNames.has(name)) error(`/scenarios/${i}/pinnedResponses/${escapePointer(name)}`, `“${name}” is not one of the document’s externalApis.`)
  })
  doc.keywordMaps.forEach((map, i) => { if (map.scenario !== null && !scenarioNames.has(map.scenario)) error(`/keywordMaps/${i}/scenario`, `no scenario of this document is named “${map.scenario}”.`) })

  // The dictionary: a name the target already sees is reused when it is the same kind and data type; the set's own
  // entries are updated to the document's definition.
  const seen = set
    ? await dictionaryFor(db, set)
    : (await listEntities(db, { ownerIds: [...new Set([ownerId, PROVIDER_OWNER_ID])] })).filter((row) => row.adviceSetId === null)
  const seenByName = new Map(seen.map((row) => [row.reservedName.toLowerCase(), row]))
  const existingEntries = new Map<string, EntityRow>()
  const entryNames = new Set<string>()
  doc.dictionary.forEach((entry, i) => {
    const pointer = `/dictionary/${i}`
    const lower = entry.name.toLowerCase()
    if (!NAME_PATTERN.test(entry.name)) { error(`${pointer}/name`, `“${entry.name}” is not a name the dictionary accepts.`); return }
    if (entryNames.has(lower)) { error(`${pointer}/name`, `the name “${entry.name}” is used twice.`); return }
    entryNames.add(lower)
    if (entry.kind === 'formula') {
      if (!entry.expression) error(`${pointer}/expression`, 'a formula needs its expression.')
      else {
        try {
          checkExpression('expression', entry.expression, 'value')
        } catch (e) {
          if (!(e instanceof ValidationError || e instanceof EngineError)) throw e
          error(`${pointer}/expression`, e.message.replace(/^expression: /, ''))
        }
      }
    }
    const row = seenByName.get(lower)
    if (!row) { plan.dictionary.create.push(entry.name); return }
    const rowKind = row.entityTypeId === ENTITY_TYPES.formula.id ? 'formula' : 'variable'
    if (rowKind !== entry.kind || (row.dataType ?? null) !== entry.dataType) {
      error(`${pointer}`, `“${entry.name}” is ${kindLabel(entry.kind, entry.dataType)} in this file, but ${kindLabel(rowKind, row.dataType)} here. Rename one of them, or change its type, before importing.`)
      return
    }
    existingEntries.set(lower, row)
    if (set && row.adviceSetId === set.id) { if (!sameDefinition(entry, row) || row.personal !== entry.personal || row.description !== entry.description) plan.dictionary.update.push(entry.name); else plan.dictionary.reuse.push(entry.name) }
    else {
      plan.dictionary.reuse.push(entry.name)
      if (!sameDefinition(entry, row)) warn(pointer, `“${entry.name}” exists here with another definition; the existing one is used.`)
    }
  })

  // External APIs: reused by name; created otherwise, with secrets to fill in.
  const apis = new Map<string, ExternalApiRow>()
  const ownApis = new Map((await listExternalApis(db, ownerId)).map((row) => [row.name, row]))
  for (const [i, api] of doc.externalApis.entries()) {
    const found = ownApis.get(api.name)
    if (found) { apis.set(api.name, found); plan.externalApis.reuse.push(api.name); continue }
    if (!canWriteExternalApis(actor)) { error(`/externalApis/${i}`, `“${api.name}” does not exist here, and only authors and admins create external APIs.`); continue }
    try {
      await checkDefinition({ ...api, headers: api.headers.map((h) => ({ name: h.name, value: h.secret ? 'secret' : h.value ?? '', secret: h.secret })) })
      plan.externalApis.create.push(api.name)
      for (const header of api.headers) if (header.secret) warn(`/externalApis/${i}`, `“${api.name}” is created without the value of its secret header ${header.name}: enter it on the external API’s page.`)
    } catch (e) {
      if (e instanceof ValidationError) error(`/externalApis/${i}/${e.field ?? ''}`.replace(/\/$/, ''), e.message)
      else throw e
    }
  }

  // Supplements: links are created; files are found among the team's supplements (same name, type and size).
  const supplements = new Map<string, number>()
  for (const [i, supplement] of doc.supplements.entries()) {
    const match = (await matchingSupplements(db, { ownerId, name: supplement.name, format: supplement.format, contentType: supplement.contentType, size: supplement.size, url: supplement.url }))[0]
    if (match) { supplements.set(supplement.key, match.id); plan.supplements.reuse.push(supplement.name); continue }
    if (supplement.format === 'link' && supplement.url) { plan.supplements.create.push(supplement.name); continue }
    const path = supplement.file?.startsWith('files/') ? supplement.file.slice('files/'.length) : null
    if (path !== null && opts.files?.has(path)) { plan.supplements.create.push(supplement.name); continue }
    plan.supplements.leftOut.push(supplement.name)
    warn(`/supplements/${i}`, `the file “${supplement.name}” is not in this document and not among this team’s files: its links are left out. Import the ZIP form to bring files along.`)
  }

  // The set's place: its category and tags, when this team has them.
  let categoryId: number | null = set?.categoryId ?? null
  if (doc.adviceSet.category !== null) {
    const category = (await listCategories(db, [ownerId])).find((c) => c.name === doc.adviceSet.category)
    if (category) categoryId = category.id
    else warn('/adviceSet/category', `this team has no category “${doc.adviceSet.category}”; the set ${set ? 'keeps its own' : 'is left without one'}.`)
  }
  const tags = await listTags(db, [...new Set([ownerId, PROVIDER_OWNER_ID])])
  const tagIds: number[] = []
  doc.adviceSet.tags.forEach((slug, i) => {
    const tag = tags.find((t) => t.slug === slug && t.ownerId === ownerId) ?? tags.find((t) => t.slug === slug)
    if (tag) tagIds.push(tag.id)
    else warn(`/adviceSet/tags/${i}`, `this team has no tag “${slug}”; it is left out.`)
  })

  const importKeywordMaps = doc.keywordMaps.length > 0 && canManageKeywordMaps(actor)
  if (doc.keywordMaps.length > 0 && !importKeywordMaps) warn('/keywordMaps', `keyword maps are kept by the team’s admins: the ${doc.keywordMaps.length} of this document are left out.`)

  // What changes in the target.
  const liveRules = set ? await listRules(db, set.id) : []
  const liveKeys = new Set(liveRules.map((r) => r.key))
  for (const rule of doc.rules) (liveKeys.has(rule.key) ? plan.rules.update : plan.rules.create).push(rule.name)
  plan.rules.delete = liveRules.filter((r) => !ruleKeys.has(r.key)).map((r) => r.name)
  const liveNodeKeys = new Set(set ? (await listSetNodesEver(db, set.id)).filter((n) => n.deletedAt === null && liveRules.some((r) => r.id === n.ruleId)).map((n) => n.key) : [])
  for (const key of nodeKeys.keys()) if (liveNodeKeys.has(key)) plan.nodes.keep += 1; else plan.nodes.create += 1
  plan.nodes.delete = [...liveNodeKeys].filter((key) => !nodeKeys.has(key)).length
  const scenarioRows = set ? await findScenariosOfSet(db, set.id) : []
  for (const scenario of doc.scenarios) (scenarioRows.some((s) => s.name === scenario.name) ? plan.scenarios.update : plan.scenarios.create).push(scenario.name)
  if (importKeywordMaps) {
    const maps = set ? await listKeywordMaps(db, { ownerIds: [ownerId], adviceSetId: set.id, limit: 10_000 }) : []
    for (const map of doc.keywordMaps) (maps.some((m) => m.map.name === map.name) ? plan.keywordMaps.update : plan.keywordMaps.create).push(map.name)
  }

  return { plan, doc, resolved: { set, ownerId, existingEntries, apis, externalRules, externalNodes, supplements, categoryId, tagIds, importKeywordMaps } }
}
