// External API definitions (issue 17): owner-scoped like everything an owner makes. The owner's users read them;
// its authors and admins (and provider admins) write them. Soft delete with restore; a delete is refused (221) while
// an API Call node uses the definition. Every write is audited with a snapshot that never holds a secret header value
// (neither in clear nor sealed). Test requests go through src/net like every run's calls.
import type { Db } from '../../db/client.ts'
import {
  findExternalApi, insertExternalApi, listApiCallUses, listExternalApis, updateExternalApi, type ApiCallUse, type ExternalApiRow,
} from '../../db/queries/external-apis.ts'
import { audit } from '../audit/audit.ts'
import { isProviderAdmin, type Actor, type Deps } from '../context.ts'
import { ForbiddenError, NotFoundError, ValidationError, type Dependent } from '../errors.ts'
import { assertCanChange, canCollaborateOnSet, canWriteOwned } from '../accounts/visibility.ts'
import { assertNoDependents, registerDependentCheck } from '../authoring/dependents.ts'
import {
  HTTP_METHODS, checkDefinition, externalApiView, resolveSecrets, sealHeaders, type CheckedDefinition, type ExternalApiInput, type ExternalApiView,
} from './api-definition.ts'
import { buildRequest, MissingValueError, templateVariables } from './api-request.ts'
import { DATA_TYPES } from '../../engine/index.ts'
import { callApi, type ApiAnswer } from './api-calls.ts'
import { externalApiRuntime, loadedDefinition } from './api-runtime.ts'
import { mapValue } from './response-mapping.ts'

export const ENTITY_EXTERNAL_API = 'externalapi'

export type { ExternalApiInput, ExternalApiView }

/** What the activity log keeps: the definition with secret header values left out. */
function snapshot(row: ExternalApiRow) {
  const { createdAt: _c, updatedAt: _u, deleted, ...view } = externalApiView(row)
  return { ...view, headers: row.headers.map((h) => (h.secret ? { name: h.name, secret: true } : h)), deleted }
}

export type ExternalApiSnapshot = ReturnType<typeof snapshot>

function nodeUri(use: ApiCallUse): string {
  return `/adviceset/${use.adviceSetId}/rule/${use.ruleId}/part/${use.nodeId}`
}

async function usesOf(db: Db, row: ExternalApiRow): Promise<ApiCallUse[]> {
  return listApiCallUses(db, { apiId: row.id, ownerId: row.ownerId })
}

function dependentsOf(uses: ApiCallUse[]): Dependent[] {
  return uses.map((use) => ({
    type: 'rulenode', id: use.nodeId, name: `${use.adviceSetName} › ${use.ruleName}${use.variable ? ` → {{${use.variable}}}` : ''}`, uri: nodeUri(use),
  }))
}

registerDependentCheck(ENTITY_EXTERNAL_API, async (db, id) => {
  const row = await findExternalApi(db, id)
  return row ? dependentsOf(await usesOf(db, row)) : []
})

function canRead(actor: Actor, row: ExternalApiRow): boolean {
  return row.ownerId === actor.ownerId || isProviderAdmin(actor)
}

async function readable(deps: Deps, actor: Actor, id: number, opts: { includeDeleted?: boolean } = {}): Promise<ExternalApiRow> {
  const row = await findExternalApi(deps.db, id, opts)
  if (!row || !canRead(actor, row)) throw new NotFoundError('No external API with this id')
  return row
}

async function writable(deps: Deps, actor: Actor, id: number, opts: { includeDeleted?: boolean } = {}): Promise<ExternalApiRow> {
  const row = await readable(deps, actor, id, opts)
  assertCanChange(actor, row.ownerId, 'external API')
  return row
}

export function canWriteExternalApis(actor: Actor): boolean {
  return canWriteOwned(actor, actor.ownerId)
}

export async function listExternalApisFor(deps: Deps, actor: Actor): Promise<ExternalApiView[]> {
  return (await listExternalApis(deps.db, actor.ownerId)).map(externalApiView)
}

export async function getExternalApi(deps: Deps, actor: Actor, id: number): Promise<ExternalApiView> {
  return externalApiView(await readable(deps, actor, id))
}

export async function externalApiUses(deps: Deps, actor: Actor, id: number) {
  const row = await readable(deps, actor, id)
  return (await usesOf(deps.db, row)).map((use) => ({ ...use, uri: nodeUri(use) }))
}

function storable(deps: Deps, checked: CheckedDefinition, stored?: ExternalApiRow) {
  const headers = sealHeaders(resolveSecrets(checked.headers, stored?.headers, deps.config.secretKey), deps.config.secretKey)
  return { ...checked, headers }
}

export async function createExternalApi(deps: Deps, actor: Actor, input: ExternalApiInput): Promise<ExternalApiView> {
  if (!canWriteExternalApis(actor)) throw new ForbiddenError('Only authors and admins create external APIs. Ask an admin of your team to make you an author.')
  const settings = storable(deps, await checkDefinition(input))
  const row = await deps.db.transaction(async (tx) => {
    const row = await insertExternalApi(tx, { ...settings, ownerId: actor.ownerId, createdBy: actor.userId })
    await audit(tx, actor, { ownerId: row.ownerId, action: 'create', entityType: ENTITY_EXTERNAL_API, entityId: row.id, after: snapshot(row) })
    return row
  })
  return externalApiView(row)
}

/** Replaces the definition; a secret header sent with an empty value keeps its stored value. */
export async function updateExternalApiFor(deps: Deps, actor: Actor, id: number, input: ExternalApiInput): Promise<ExternalApiView> {
  const before = await writable(deps, actor, id)
  const settings = storable(deps, await checkDefinition(input), before)
  const after = await deps.db.transaction(async (tx) => {
    const after = await updateExternalApi(tx, id, { ...settings, updatedBy: actor.userId })
    await audit(tx, actor, { ownerId: before.ownerId, action: 'update', entityType: ENTITY_EXTERNAL_API, entityId: id, before: snapshot(before), after: snapshot(after) })
    return after
  })
  externalApiRuntime(deps).forget(String(id))
  return externalApiView(after)
}

export async function deleteExternalApi(deps: Deps, actor: Actor, id: number): Promise<void> {
  const row = await writable(deps, actor, id)
  await assertNoDependents(deps.db, ENTITY_EXTERNAL_API, id, `The external API "${row.name}"`)
  await deps.db.transaction(async (tx) => {
    const deleted = await updateExternalApi(tx, id, { deletedAt: new Date(), updatedBy: actor.userId })
    await audit(tx, actor, { ownerId: row.ownerId, action: 'delete', entityType: ENTITY_EXTERNAL_API, entityId: id, before: snapshot(row), after: snapshot(deleted) })
  })
  externalApiRuntime(deps).forget(String(id))
}

export async function restoreExternalApi(deps: Deps, actor: Actor, id: number): Promise<ExternalApiView> {
  const row = await writable(deps, actor, id, { includeDeleted: true })
  if (row.deletedAt === null) throw new ValidationError('id', 'This external API is not deleted.')
  const restored = await deps.db.transaction(async (tx) => {
    const restored = await updateExternalApi(tx, id, { deletedAt: null, updatedBy: actor.userId })
    await audit(tx, actor, { ownerId: row.ownerId, action: 'restore', entityType: ENTITY_EXTERNAL_API, entityId: id, before: snapshot(row), after: snapshot(restored) })
    return restored
  })
  return externalApiView(restored)
}

/**
 * Puts a definition back as an activity snapshot describes it (null: undoing its creation deletes it). Secret header
 * values are not in snapshots: a secret header keeps the value stored under its name, or the restore is refused.
 */
export async function restoreExternalApiSnapshot(deps: Deps, actor: Actor, id: number, target: ExternalApiSnapshot | null): Promise<void> {
  const row = await writable(deps, actor, id, { includeDeleted: true })
  const deleteIt = target === null || target.deleted
  if (deleteIt) {
    if (row.deletedAt !== null) throw new ValidationError('id', 'This external API is already deleted.')
    await assertNoDependents(deps.db, ENTITY_EXTERNAL_API, id, `The external API "${row.name}"`)
  }
  const settings = deleteIt ? {} : storable(deps, await checkDefinition({ ...target, headers: target!.headers.map((h) => ({ ...h, value: 'value' in h ? h.value : '' })) }), row)
  await deps.db.transaction(async (tx) => {
    const restored = await updateExternalApi(tx, id, { ...settings, deletedAt: deleteIt ? new Date() : null, updatedBy: actor.userId })
    await audit(tx, actor, { ownerId: row.ownerId, action: 'restore', entityType: ENTITY_EXTERNAL_API, entityId: id, before: snapshot(row), after: snapshot(restored) })
  })
  externalApiRuntime(deps).forget(String(id))
}

// Test requests -------------------------------------------------------------------------------------------------------

export interface TestRequestInput {
  /** The saved definition (`{id}/send`), or the one whose stored secrets fill empty secret headers (`verify/send`). */
  id?: number
  /** An unsaved definition (`verify/send`). */
  definition?: ExternalApiInput
  /** Values for the templates' {{Variable}} placeholders. */
  inputs?: Record<string, unknown>
}

export interface TestRequestResult {
  request: ApiAnswer['request']
  response: { status: number | null; timeMs: number | null; headers: Record<string, string>; body: string } | null
  error: { code: string; message: string } | null
  mapped: Array<{ variable: string; path: string; dataType: string; value: unknown; valueText: string | null; error: string | null }>
}

function valuesOf(raw: Record<string, unknown> | undefined): (name: string) => string | undefined {
  return (name) => {
    const value = raw?.[name]
    if (value === undefined || value === null || value === '') return undefined
    return typeof value === 'string' ? value : JSON.stringify(value)
  }
}

/** Sends a definition once with the values given, bypassing the cache, and shows what came back and what it maps to. */
export async function sendTestRequest(deps: Deps, actor: Actor, input: TestRequestInput): Promise<TestRequestResult> {
  if (!canWriteExternalApis(actor)) throw new ForbiddenError('Only authors and admins send test requests. Ask an admin of your team to make you an author.')
  const stored = input.id === undefined ? undefined : await writable(deps, actor, input.id)
  let row: Pick<ExternalApiRow, 'id' | 'name' | 'method' | 'urlTemplate' | 'headers' | 'bodyTemplate' | 'timeoutMs' | 'responseMapping' | 'cacheTtlSeconds' | 'updatedAt'>
  if (input.definition !== undefined) {
    // A definition can be tried before it is named.
    const named = typeof input.definition.name === 'string' && input.definition.name.trim() !== ''
    const checked = await checkDefinition(named ? input.definition : { ...input.definition, name: 'Unsaved external API' })
    row = { ...storable(deps, checked, stored), id: stored?.id ?? 0, updatedAt: new Date() }
  } else if (stored) {
    row = stored
  } else {
    throw new ValidationError('definition', 'definition: give the definition to send.')
  }
  const definition = loadedDefinition({ ...row, ownerId: actor.ownerId, sampleResponse: '', createdBy: null, updatedBy: null, createdAt: row.updatedAt, deletedAt: null }, deps.config.secretKey)
  let request
  try {
    request = buildRequest(definition.sendable, valuesOf(input.inputs))
  } catch (error) {
    if (!(error instanceof MissingValueError)) throw error
    throw new ValidationError(`inputs.${error.variable}`, `inputs.${error.variable}: give a value for {{${error.variable}}} to send the request.`)
  }
  const answer = await callApi(deps.outbound, definition, request)
  return {
    request: answer.request,
    response: answer.status === null ? null : { status: answer.status, timeMs: answer.timeMs, headers: answer.headers, body: answer.body },
    error: answer.error ?? null,
    mapped: definition.mapping.map((mapping) => {
      const found = answer.document === undefined ? null : mapValue(answer.document, mapping)
      return {
        variable: mapping.variable, path: mapping.path, dataType: mapping.dataType,
        value: found?.ok ? found.value : null,
        valueText: found?.ok ? (found.value instanceof Date ? found.value.toISOString() : JSON.stringify(found.value)) : null,
        error: found === null ? 'no JSON answer to read' : found.ok ? null : found.message,
      }
    }),
  }
}

// Page models ------------------------------------------------------------------------------------------------------------

/** What the definition form needs besides the definition: the choices and the placeholders to give values for. */
export function definitionFormChoices() {
  return { methods: HTTP_METHODS, dataTypes: DATA_TYPES }
}

/** The {{Variable}} placeholders of a definition (saved or as typed), for the test request's value fields. */
export function placeholdersOf(definition: { urlTemplate?: unknown; bodyTemplate?: unknown; headers?: unknown }): string[] {
  const text = (raw: unknown) => (typeof raw === 'string' ? raw : '')
  const headers = Array.isArray(definition.headers) ? definition.headers.map((h: unknown) => ({ name: '', secret: false, value: text((h as { value?: unknown } | null)?.value) })) : []
  return templateVariables({ urlTemplate: text(definition.urlTemplate), bodyTemplate: text(definition.bodyTemplate), headers })
}

/** The definitions an advice set's API Call nodes may name (its owner's), with what each maps, for the rule pages' picker. */
export async function apiChoicesForSet(deps: Deps, actor: Actor, set: { ownerId: string }) {
  if (!canCollaborateOnSet(actor, set)) return []
  return (await listExternalApis(deps.db, set.ownerId)).map((row) => ({
    id: row.id, name: row.name, method: row.method, urlTemplate: row.urlTemplate, variables: row.responseMapping.map((m) => m.variable),
    mapped: row.responseMapping.map((m) => ({ variable: m.variable, dataType: m.dataType })),
  }))
}
