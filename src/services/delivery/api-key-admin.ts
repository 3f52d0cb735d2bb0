// Managing API keys (DESIGN roles): admins manage their own owner's keys, provider admins every owner's. Other
// roles are refused (403); another owner's key does not exist for them (404). Every change is audited.
import type { ApiKeyEnvironment } from '../../db/schema/index.ts'
import { keysetPage, type KeysetPage } from '../../db/queries/keyset-page.ts'
import { API_KEY_ENVIRONMENTS } from '../../db/schema/index.ts'
import {
  findLiveApiKey, listAudiencesForKeys, listLiveApiKeys, replaceApiKeySecret, requestsOnDay, softDeleteApiKey,
  updateApiKey, findApiKeyWithHistory, listDeletedApiKeys, type KeyWithHistory, type ListedApiKey,
} from '../../db/queries/api-keys.ts'
import { findAdviceSetsByIds } from '../../db/queries/advice-sets.ts'
import { setChoices } from '../library/set-choices.ts'
import { findAudience } from '../../db/queries/audiences.ts'
import { findOwner, listOwners } from '../../db/queries/users.ts'
import { audit } from '../audit/audit.ts'
import { PROVIDER_OWNER_ID, isProviderAdmin, type Actor, type Deps } from '../context.ts'
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.ts'
import { checkFields, requireOneOf, requireText } from '../validate.ts'
import { setVisibility } from '../accounts/visibility.ts'
import { forgetApiKey, hashApiKeySecret, issueApiKey, secretUnder } from './api-keys.ts'

export type { ListedApiKey }

const ENTITY_API_KEY = 'apikey'
const MAX_ORIGINS = 20
const MAX_RATE_LIMIT = 100_000
const DEFAULT_RATE_LIMIT = 600
/** How long, at most, a rotated key's old secret may keep working. */
export const MAX_ROTATION_GRACE_HOURS = 24
const HOUR_MS = 60 * 60 * 1000

/** What a form or the API sends; every field is checked here. */
export interface ApiKeyInput {
  name?: unknown
  environment?: unknown
  ownerId?: unknown
  audienceId?: unknown
  allowedAdviceSetIds?: unknown
  allowedOrigins?: unknown
  rateLimit?: unknown
  adviceRequests?: unknown
  /** true/"allow", false/"refuse"; absent or empty: the environment's default on creation, unchanged on an edit. */
  explain?: unknown
}

/** Ids from a JSON array, repeated form fields or a comma-separated text. */
function idsOf(field: string, label: string, raw: unknown): number[] {
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',').map((v) => v.trim()).filter(Boolean) : [raw]
  return [...new Set(list.map((v) => {
    const text = typeof v === 'number' ? String(v) : typeof v === 'string' ? v : ''
    if (!/^\d{1,15}$/.test(text) || Number(text) < 1) throw new ValidationError(field, `${label}: "${String(v)}" is not an id.`)
    return Number(text)
  }))]
}

function assertKeyAdmin(actor: Actor): void {
  if (actor.role !== 'admin') throw new ForbiddenError('Only admins manage API keys: ask an admin of your team.')
}

/** The key if the actor may manage it; another owner's key answers as unknown. */
export async function getApiKeyFor(deps: Deps, actor: Actor, id: number): Promise<ListedApiKey> {
  assertKeyAdmin(actor)
  return managed(actor, await findLiveApiKey(deps.db, id))
}

/** Another owner's key answers as unknown (provider admins manage every owner's). */
function managed<Key extends { ownerId: string }>(actor: Actor, key: Key | undefined): Key {
  if (!key || (key.ownerId !== actor.ownerId && !isProviderAdmin(actor))) throw new NotFoundError('No API key with this id')
  return key
}

/** A key live or deleted, for its usage history: its owner's admins and provider admins read it. */
export async function getApiKeyWithHistoryFor(deps: Deps, actor: Actor, id: number): Promise<KeyWithHistory> {
  assertKeyAdmin(actor)
  return managed(actor, await findApiKeyWithHistory(deps.db, id))
}

/** Keys a page of the API keys admin shows, of live and of deleted keys each; the rest follow by "Next keys". */
export const KEY_PAGE_SIZE = 100

/** Deleted keys whose usage the actor may read, most recently deleted first, a page at a time. */
export async function deletedApiKeyPage(deps: Deps, actor: Actor, afterId?: number): Promise<KeysetPage<KeyWithHistory>> {
  assertKeyAdmin(actor)
  return keysetPage(await listDeletedApiKeys(deps.db, isProviderAdmin(actor) ? undefined : actor.ownerId, { afterId, limit: KEY_PAGE_SIZE + 1 }), KEY_PAGE_SIZE)
}

function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10)
}

/** Live keys newest first, a page at a time, each with its requests today (UTC). */
export async function apiKeyPage(deps: Deps, actor: Actor, afterId?: number): Promise<KeysetPage<ListedApiKey & { requestsToday: number }>> {
  assertKeyAdmin(actor)
  const page = keysetPage(await listLiveApiKeys(deps.db, isProviderAdmin(actor) ? undefined : actor.ownerId, { afterId, limit: KEY_PAGE_SIZE + 1 }), KEY_PAGE_SIZE)
  const today = await requestsOnDay(deps.db, page.shown.map((k) => k.id), todayUtc())
  return { shown: page.shown.map((k) => ({ ...k, requestsToday: today.get(k.id) ?? 0 })), nextAfter: page.nextAfter }
}

/**
 * Choices for the key form: teams (provider admins only), audiences, and the advice sets the team may use, listed by
 * name or narrowed by `find`, always with the sets the form has chosen (setChoices).
 */
export async function apiKeyFormChoices(deps: Deps, actor: Actor, p: { chosen: number[]; find?: string }) {
  assertKeyAdmin(actor)
  const provider = isProviderAdmin(actor)
  const [sets, owners, audiences] = await Promise.all([
    setChoices(deps, actor, p), provider ? listOwners(deps.db) : null, listAudiencesForKeys(deps.db, provider ? undefined : actor.ownerId),
  ])
  return { owners, audiences, adviceSets: sets.sets.map((r) => ({ id: r.id, name: r.name, ownerId: r.ownerId })), setFinder: sets.finder }
}

async function keyOwner(deps: Deps, actor: Actor, raw: unknown): Promise<string> {
  if (raw === undefined || raw === null || raw === '' || raw === actor.ownerId) return actor.ownerId
  if (typeof raw !== 'string') throw new ValidationError('ownerId', 'Team must be a team id.')
  if (!isProviderAdmin(actor)) throw new ValidationError('ownerId', 'You can only create keys for your own team.')
  if (!(await findOwner(deps.db, raw))) throw new ValidationError('ownerId', 'No team with this id.')
  return raw
}

async function audienceOf(deps: Deps, ownerId: string, raw: unknown): Promise<number | null> {
  if (raw === undefined || raw === null || raw === '') return null
  const ids = idsOf('audienceId', 'Audience', raw)
  const id = ids[0]!
  if (ids.length !== 1 || (await findAudience(deps.db, id))?.ownerId !== ownerId) {
    throw new ValidationError('audienceId', "Audience must be one of the team's audiences.")
  }
  return id
}

/** Sets the key's team may use (its own, the provider's, public and starter sets); empty means all of them. */
async function allowedSetsOf(deps: Deps, ownerId: string, raw: unknown): Promise<number[]> {
  if (raw === undefined || raw === null || raw === '') return []
  const ids = idsOf('allowedAdviceSetIds', 'Allowed advice sets', raw)
  const usable = new Set((await findAdviceSetsByIds(deps.db, ids, { ownerId, providerOwnerId: PROVIDER_OWNER_ID, all: false })).map((s) => s.id))
  const refused = ids.find((id) => !usable.has(id))
  if (refused !== undefined) throw new ValidationError('allowedAdviceSetIds', `Allowed advice sets: advice set ${refused} is not one this team may use.`)
  return ids.sort((a, b) => a - b)
}

/** Embed origins: scheme, host and port only (what a browser sends as Origin and frame-ancestors matches). */
function parseOrigins(raw: unknown): string[] {
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/[\s,]+/) : raw === undefined || raw === null ? [] : [raw]
  const texts = list.map((v) => (typeof v === 'string' ? v.trim() : String(v))).filter(Boolean)
  if (texts.length > MAX_ORIGINS) throw new ValidationError('allowedOrigins', `Allowed origins: at most ${MAX_ORIGINS}.`)
  const origins = texts.map((text) => {
    let url: URL | undefined
    try { url = new URL(text) } catch { url = undefined }
    const bare = url && (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password &&
      url.pathname === '/' && !url.search && !url.hash
    if (!url || !bare) {
      throw new ValidationError('allowedOrigins', `Allowed origins: "${text}" is not an origin; give the scheme, host and port only, like https://partner.example or http://localhost:8080.`)
    }
    return url.origin
  })
  return [...new Set(origins)]
}

function rateLimitOf(raw: unknown): number {
  if (raw === undefined || raw === null || raw === '') return DEFAULT_RATE_LIMIT
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : ''
  const n = Number(text)
  if (!/^\d+$/.test(text) || n < 1 || n > MAX_RATE_LIMIT) {
    throw new ValidationError('rateLimit', `Rate limit must be a whole number of requests per minute from 1 to ${MAX_RATE_LIMIT}.`)
  }
  return n
}

/** The settings a form may change, every field checked (all bad fields are told at once). */
function settingsOf(deps: Deps, ownerId: string, input: ApiKeyInput) {
  return checkFields({
    name: () => requireText('name', input.name, 'Name', 120),
    audienceId: () => audienceOf(deps, ownerId, input.audienceId),
    allowedAdviceSetIds: () => allowedSetsOf(deps, ownerId, input.allowedAdviceSetIds),
    allowedOrigins: () => parseOrigins(input.allowedOrigins),
    rateLimit: () => rateLimitOf(input.rateLimit),
    // A checkbox: present ("on", true) when ticked.
    adviceRequests: () => input.adviceRequests === true || input.adviceRequests === 'on' || input.adviceRequests === 'true',
    explain: () => explainOf(input.explain),
  })
}

/** Whether the key may ask for explanations; undefined when the input leaves it to the default. */
function explainOf(raw: unknown): boolean | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined
  if (raw === true || raw === 'allow' || raw === 'true') return true
  if (raw === false || raw === 'refuse' || raw === 'false') return false
  throw new ValidationError('explain', 'Explanations: choose Allowed or Refused.')
}

/** Explanations name the conditions and values behind an answer: refused to production keys unless allowed. */
function defaultExplain(environment: ApiKeyEnvironment): boolean {
  return environment === 'preview'
}

/** What the audit log keeps of a key: its settings, never its secret or hash. */
function audited(key: ListedApiKey) {
  const { createdAt: _c, updatedAt: _u, lastUsedAt: _l, ownerName: _o, previousSecretUntil: _p, ...settings } = key
  return settings
}

/** Creates a key and returns its secret: the only time it exists outside the hash. */
export async function createApiKeyFor(deps: Deps, actor: Actor, input: ApiKeyInput): Promise<{ key: ListedApiKey; secret: string }> {
  assertKeyAdmin(actor)
  // The team decides which audiences and sets are allowed: the other settings are checked against it once it is known.
  const ownerId = await keyOwner(deps, actor, input.ownerId)
  const { environment, settings } = await checkFields({
    environment: (): ApiKeyEnvironment => input.environment === undefined || input.environment === ''
      ? 'production' : requireOneOf('environment', input.environment, API_KEY_ENVIRONMENTS, 'Environment'),
    settings: () => settingsOf(deps, ownerId, input),
  })
  return deps.db.transaction(async (tx) => {
    const issued = await issueApiKey(tx, { ...settings, explain: settings.explain ?? defaultExplain(environment), environment, ownerId, createdBy: actor.userId })
    await audit(tx, actor, { ownerId, action: 'create', entityType: ENTITY_API_KEY, entityId: issued.key.id, after: audited(issued.key) })
    return issued
  })
}

/** Changes a key's settings; its owner, environment and secret stay. Takes effect at once on this instance. */
export async function updateApiKeyFor(deps: Deps, actor: Actor, id: number, input: ApiKeyInput): Promise<ListedApiKey> {
  const before = await getApiKeyFor(deps, actor, id)
  const settings = await settingsOf(deps, before.ownerId, input)
  const after = await deps.db.transaction(async (tx) => {
    await updateApiKey(tx, id, { ...settings, explain: settings.explain ?? before.explain })
    const after = (await findLiveApiKey(tx, id))!
    await audit(tx, actor, { ownerId: before.ownerId, action: 'update', entityType: ENTITY_API_KEY, entityId: id, before: audited(before), after: audited(after) })
    return after
  })
  forgetApiKey(deps.db, id)
  return after
}

/** Soft delete: the key stops working at once (on other instances within the few seconds of their cache). */
export async function deleteApiKeyFor(deps: Deps, actor: Actor, id: number): Promise<void> {
  const key = await getApiKeyFor(deps, actor, id)
  await deps.db.transaction(async (tx) => {
    await softDeleteApiKey(tx, id)
    await audit(tx, actor, { ownerId: key.ownerId, action: 'delete', entityType: ENTITY_API_KEY, entityId: id, before: audited(key) })
  })
  forgetApiKey(deps.db, id)
}

/** The grace period a form or the API sends, in whole hours from 0 to MAX_ROTATION_GRACE_HOURS. */
function graceHoursOf(raw: unknown): number {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : ''
  if (!/^\d{1,2}$/.test(text) || Number(text) > MAX_ROTATION_GRACE_HOURS) {
    throw new ValidationError('graceHours', `Grace period: give a whole number of hours from 0 to ${MAX_ROTATION_GRACE_HOURS}${text === '' ? '' : `, not “${text}”`}.`)
  }
  return Number(text)
}

/**
 * A new secret for the same key (its id, prefix, settings and usage stay). The old secret keeps working for the grace
 * period chosen, so partners can switch without an outage; with 0 hours it stops at once. Returns the new secret:
 * the only time it exists outside its hash.
 */
export async function rotateApiKeyFor(deps: Deps, actor: Actor, id: number, input: { graceHours?: unknown }): Promise<{ key: ListedApiKey; secret: string }> {
  const graceHours = graceHoursOf(input.graceHours)
  const before = await getApiKeyFor(deps, actor, id)
  const secret = secretUnder(before.prefix)
  const previousUntil = graceHours === 0 ? null : new Date(Date.now() + graceHours * HOUR_MS)
  const key = await deps.db.transaction(async (tx) => {
    await replaceApiKeySecret(tx, id, hashApiKeySecret(secret), previousUntil)
    const after = (await findLiveApiKey(tx, id))!
    await audit(tx, actor, {
      ownerId: before.ownerId, action: 'update', entityType: ENTITY_API_KEY, entityId: id,
      before: audited(before), after: { ...audited(after), rotated: true, graceHours },
    })
    return after
  })
  // This instance stops accepting the old secret the moment its grace ends (at once with 0 hours).
  forgetApiKey(deps.db, id)
  return { key, secret }
}
