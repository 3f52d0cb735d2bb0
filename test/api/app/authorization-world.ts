// The world the route authorization matrix runs in: owner A ("own": viewer, author, admin, an API key), owner B
// ("other": admin, API key, private objects whose names carry B's marker), the provider owner TF (its admin), and a
// public advice set. Every family of object a route can name exists for A and B, and a readable third one ("public":
// B's public set and its children, or the provider's object for things an owner keeps for itself). A fourth column
// ("starter", issue 22): B's starter set that is not public, whose content every team reads and copies while its
// collaboration data (comments, requests for advice, its activity, the supplements linked to the set itself) carry
// B's marker and stay B's.
import { Readable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { decisionIdAt } from '../../../src/services/decisions/decision-id.ts'
import { insertDecisionRecords } from '../../../src/db/queries/decisions.ts'
import type { Db } from '../../../src/db/client.ts'
import type { Deps, Actor } from '../../../src/services/context.ts'
import { createOwner, createUser, type TestUser } from '../../helpers/factories.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { retirementSet } from '../../helpers/scenarios.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { buildRule, createFormula, createVariable } from '../../helpers/rules.ts'
import { createAdviceSet as createAdviceSetRow } from '../../helpers/advice-sets.ts'
import { createExternalApiDefinition } from '../../helpers/external-apis.ts'
import { signedInAgent, sessionAgent, Agent } from '../../helpers/agent.ts'
import { createScenario } from '../../../src/services/scenarios/scenarios.ts'
import { createKeywordMap } from '../../../src/services/library/keyword-maps.ts'
import { createLinkSupplement } from '../../../src/services/files/supplements.ts'
import { linkSupplement } from '../../../src/services/files/links.ts'
import { uploadSupplement } from '../../../src/services/files/uploads.ts'
import { addComment } from '../../../src/services/authoring/comments.ts'
import { createTag } from '../../../src/services/library/tags.ts'
import { createCategory } from '../../../src/services/library/categories.ts'
import { createAudience } from '../../../src/services/publishing/audiences.ts'
import { recordAdviceRequest } from '../../../src/services/library/advice-requests.ts'
import { planExport, startExportJob } from '../../../src/services/operations/export.ts'
import { recordRecentSet } from '../../../src/services/library/recent-items.ts'
import { listRecentItems } from '../../../src/db/queries/recent-items.ts'
import { insertPasswordToken } from '../../../src/db/queries/users.ts'
import { newLinkToken } from '../../../src/services/accounts/passwords.ts'
import { deleteComment } from '../../../src/services/authoring/comments.ts'
import { deleteRule } from '../../../src/services/authoring/rules.ts'
import { deleteNode } from '../../../src/services/authoring/rule-nodes.ts'
import { deleteAdviceSet } from '../../../src/services/library/advice-sets.ts'
import { deleteKeywordMap } from '../../../src/services/library/keyword-maps.ts'
import { deleteSupplement } from '../../../src/services/files/supplements.ts'
import { deleteScenario } from '../../../src/services/scenarios/scenarios.ts'
import { deleteExternalApi } from '../../../src/services/integrations/external-apis.ts'
import { PROVIDER_OWNER_ID } from '../../../src/services/context.ts'
import { and, desc, eq } from 'drizzle-orm'
import { activity } from '../../../src/db/schema/index.ts'
import { searchRuntime } from '../../../src/services/search.ts'

/** The activity row of a comment's deletion (what /activity/:id/restore undoes). */
async function deletionOf(db: Db, commentId: number): Promise<number> {
  const [row] = await db.select({ id: activity.id }).from(activity)
    .where(and(eq(activity.entityType, 'comment'), eq(activity.entityId, String(commentId)), eq(activity.action, 'delete'))).orderBy(desc(activity.id)).limit(1)
  if (!row) throw new Error(`no deletion recorded for comment ${commentId}`)
  return row.id
}

/** The person's recent item for a set (recent items are each person's own list: the side's admin's here). */
async function recentItemOf(deps: Deps, actor: Actor, setId: number): Promise<number> {
  await recordRecentSet(deps, actor, setId)
  const [item] = await listRecentItems(deps.db, actor.userId, 1)
  return item!.id
}

/** A usable mailed-link token (reset or set-up) of a new account of its own, for a cell that spends it. */
export async function passwordToken(db: Db, purpose: 'reset' | 'setup'): Promise<string> {
  const user = await createUser(db, { role: 'author', name: `Link ${purpose}` })
  const { token, tokenHash } = newLinkToken()
  await insertPasswordToken(db, { userId: user.id, purpose, tokenHash, expiresAt: new Date(Date.now() + 3_600_000) })
  return token
}

let indexedObjects = 0

/** An object of its own in the search index, for a cell that deletes it (an ID the index lacks is a 404). */
export async function indexedSearchObject(deps: Deps): Promise<string> {
  const objectID = `matrix-object-${++indexedObjects}`
  await searchRuntime(deps).index.upsert([{
    objectID, entityType: { id: 9, displayName: 'Advice Set' }, ownerId: PROVIDER_OWNER_ID, ownerName: 'Provider', name: objectID, name_alt: objectID,
    uri: '/', nodeId: null, rule: null, adviceset: null, tags: [], text: '', updatedAt: new Date(),
  }])
  return objectID
}

/** Only B's private objects carry this; no principal but B's (and the provider admin, who sees everything) may ever read it. */
export const B_MARKER = 'Globex_secret_7f3a'
/** The same for A's private objects, checked against B's principals. */
export const A_MARKER = 'Acme_secret_31c9'

export type Principal = 'anonymous' | 'viewer' | 'author' | 'ownerAdmin' | 'providerAdmin' | 'otherAdmin' | 'ownerKey' | 'otherKey'
export const PRINCIPALS: Principal[] = ['anonymous', 'viewer', 'author', 'ownerAdmin', 'providerAdmin', 'otherAdmin', 'ownerKey', 'otherKey']
/** Which owner's object a cell names: A's, B's, the readable third one, or none (routes without an object). */
export type ObjectKind = 'own' | 'other' | 'public' | 'starter' | 'none'

/** Every id a route may need, for one owner's side of the world. */
export interface Side {
  owner: string
  /** What the side's private names begin with (its variable is `${marker}_var`, its key `${marker} key`): a form that must resend a name keeps it. */
  marker: string
  set: number; rule: number; node: number; comment: number; deletedComment: number; version: number; scenario: number
  entity: number; externalApi: number; media: number; visualization: number; keywordMap: number; tag: number
  category: number; audience: number; adviceRequest: number; apiKey: number; job: number; user: number; recentItem: number
  activity: number
  /** A formula of the side's owner (`${marker}_formula` = 1 + 1). */
  formula: number
  /** A decision record of the side's set (a UUIDv7), caused by the partner principal's key of the set's owner. */
  decision: string
}

/** A side as its builder makes it: its decision record comes once the partner keys exist. */
type BuiltSide = Omit<Side, 'decision'>

export const actorOf = (u: TestUser): Actor => ({ userId: u.id, ownerId: u.ownerId, role: u.role, impersonatorId: null })

async function buildSide(deps: Deps, db: Db, owner: string, admin: TestUser, marker: string, opts: { isPublic?: boolean; secretKey: string }): Promise<BuiltSide> {
  const actor = actorOf(admin)
  const { set, rule, ids } = await retirementSet(db, owner, { name: `${marker} set`, isPublic: opts.isPublic })
  const node = Number(ids.retire)
  const version = await publishVersion(db, { adviceSetId: set.id, actorUserId: admin.id })
  const comment = await addComment(deps, actor, node, { body: `${marker} comment` })
  const deletedComment = await addComment(deps, actor, node, { body: `${marker} deleted comment` })
  await deleteComment(deps, actor, node, deletedComment.id)
  const scenario = await createScenario(deps, actor, { adviceSetId: set.id, name: `${marker} scenario`, inputs: { Age: 70 } })
  const entity = await createVariable(db, owner, `${marker}_var`)
  const externalApi = await createExternalApiDefinition(db, opts.secretKey, { ownerId: owner, name: `${marker} api`, urlTemplate: 'https://api.example/rates' })
  const media = await createLinkSupplement(deps, actor, { url: 'https://example.com/guide', name: `${marker} link` })
  const visualization = await uploadSupplement(deps, actor, (async function* () {
    yield { kind: 'file' as const, field: 'file', filename: `${marker}.html`, stream: Readable.from([Buffer.from(`<!doctype html><p>${marker} chart</p>`)]) }
  })())
  const keywordMap = await createKeywordMap(deps, actor, { name: `${marker} map`, phrases: [`${marker.toLowerCase()} phrase`], adviceSetId: set.id })
  const tag = await createTag(deps, actor, { label: `${marker} tag` })
  const category = await createCategory(deps, actor, { name: `${marker} category` })
  const audience = await createAudience(deps, actor, owner, { name: `${marker} audience` })
  const adviceRequest = await recordAdviceRequest(deps, actor, set.id, { text: `${marker} request` })
  const { key } = await createApiKey(db, { ownerId: owner, name: `${marker} key`, rateLimit: 100_000, adviceRequests: true })
  const job = await startExportJob(deps, actor, await planExport(deps, actor, 'questions', 'csv'))
  return {
    owner, set: set.id, rule: rule.id, node, comment: comment.id, deletedComment: deletedComment.id, version: version.id, scenario: scenario.id,
    entity: entity.id, externalApi: externalApi.id, media: media.id, visualization: visualization.id, keywordMap: keywordMap.id, tag: tag.id,
    category: category.id, audience: audience.id, adviceRequest: adviceRequest.id, apiKey: key.id, job: job.id, user: admin.id, recentItem: await recentItemOf(deps, actor, set.id), activity: await deletionOf(db, deletedComment.id),
    marker, formula: (await createFormula(db, owner, `${marker}_formula`, '1 + 1')).id,
  }
}

/**
 * A decision record of the side's set under its published version, as the Advice API writes one, with the marker in
 * its inputs: its team's and its key's to read, so a leak to anyone else shows.
 */
async function decisionOf(db: Db, side: BuiltSide, setOwner: string, apiKeyId: number, marker: string): Promise<string> {
  const receivedAt = new Date()
  const id = decisionIdAt(receivedAt.getTime())
  await insertDecisionRecords(db, [{
    id, receivedAt, ownerId: setOwner, adviceSetId: side.set, versionId: side.version, versionNumber: 1, apiKeyId,
    environment: 'production', endpoint: 'api', contentType: 'text', inputs: { Note: `${marker} note` }, status: 'complete',
    outcome: { items: [], errors: [] }, engineMicros: 10,
  }])
  return id
}

export interface World {
  sides: Record<Exclude<ObjectKind, 'none'>, Side>
  agents: Record<Principal, Agent>
  /** Bearer secrets of the two keys. */
  keys: { ownerKey: string; otherKey: string }
  users: Record<'viewer' | 'author' | 'ownerAdmin' | 'providerAdmin' | 'otherAdmin', TestUser>
  /** A new agent for the principal, signed in if it is a person (for routes that end or change the session). */
  newAgent(who: Principal): Promise<Agent>
}

export async function buildWorld(app: FastifyInstance, db: Db, secretKey: string): Promise<World> {
  const deps = app.deps
  const provider = await createOwner(db, { id: PROVIDER_OWNER_ID, name: 'Advice Studio' })
  const a = await createOwner(db, { name: 'Acme' })
  const b = await createOwner(db, { name: 'Globex' })
  const users = {
    viewer: await createUser(db, { ownerId: a, role: 'viewer', name: 'Vic Acme' }),
    author: await createUser(db, { ownerId: a, role: 'author', name: 'Art Acme' }),
    ownerAdmin: await createUser(db, { ownerId: a, role: 'admin', name: 'Ann Acme' }),
    providerAdmin: await createUser(db, { ownerId: provider, role: 'admin', name: 'Pat Provider' }),
    otherAdmin: await createUser(db, { ownerId: b, role: 'admin', name: 'Gus Globex' }),
  }
  const ownBuilt = await buildSide(deps, db, a, users.ownerAdmin, A_MARKER, { secretKey })
  const otherBuilt = await buildSide(deps, db, b, users.otherAdmin, B_MARKER, { secretKey })
  const publicBuilt = await buildPublicSide(deps, db, b, users, secretKey)
  const starterBuilt = await buildStarterSide(deps, db, otherBuilt, users)
  const { secret: ownerKey, key: ownerKeyRow } = await createApiKey(db, { ownerId: a, name: 'Acme partner key', rateLimit: 100_000, adviceRequests: true })
  const { secret: otherKey, key: otherKeyRow } = await createApiKey(db, { ownerId: b, name: 'Globex partner key', rateLimit: 100_000, adviceRequests: true })
  // Every set's record is its owner's partner key's (B's for the public and starter sets, which are B's): a key reads only its own.
  const own = { ...ownBuilt, decision: await decisionOf(db, ownBuilt, a, ownerKeyRow.id, A_MARKER) }
  const other = { ...otherBuilt, decision: await decisionOf(db, otherBuilt, b, otherKeyRow.id, B_MARKER) }
  const publicSide = { ...publicBuilt, decision: await decisionOf(db, publicBuilt, b, otherKeyRow.id, 'Public') }
  const starter = { ...starterBuilt, decision: await decisionOf(db, starterBuilt, b, otherKeyRow.id, B_MARKER) }
  const agents = {
    anonymous: new Agent(app),
    viewer: await signedInAgent(app, users.viewer),
    author: await signedInAgent(app, users.author),
    ownerAdmin: await signedInAgent(app, users.ownerAdmin),
    providerAdmin: await signedInAgent(app, users.providerAdmin),
    otherAdmin: await signedInAgent(app, users.otherAdmin),
    ownerKey: new Agent(app),
    otherKey: new Agent(app),
  }
  await agents.anonymous.get('/login')
  const newAgent = async (who: Principal) => {
    if (who === 'anonymous' || who === 'ownerKey' || who === 'otherKey') {
      const agent = new Agent(app)
      await agent.get('/login')
      return agent
    }
    // Fresh sessions for rows that end or change theirs: minted, since posting the form for each would pass the
    // sign-in limit of ten a minute per account (the matrix itself checks the form's own rows).
    return sessionAgent(app, users[who])
  }
  return { sides: { own, other, public: publicSide, starter }, agents, keys: { ownerKey, otherKey }, users, newAgent }
}

/**
 * B's starter set, not public, with its children. Its content (set, rules, nodes, the scenario, the dictionary entries
 * kept for it, the supplement linked to its node: `media`) carries no marker, as every team reads it; its collaboration
 * data (comments, the request for advice, the deleted comment's activity row, the supplement linked to the set itself:
 * `visualization`) carries B's marker, so any leak to another team fails the matrix. The rest (external APIs, keyword
 * maps, tags, …) is B's own, as on the other side.
 */
async function buildStarterSide(deps: Deps, db: Db, other: BuiltSide, users: World['users']): Promise<BuiltSide> {
  const b = actorOf(users.otherAdmin)
  const { set, rule, ids } = await retirementSet(db, other.owner, { name: 'Globex starter set', isStarter: true })
  const node = Number(ids.retire)
  const version = await publishVersion(db, { adviceSetId: set.id, actorUserId: users.otherAdmin.id })
  const comment = await addComment(deps, b, node, { body: `${B_MARKER} starter comment` })
  const deletedComment = await addComment(deps, b, node, { body: `${B_MARKER} starter deleted comment` })
  await deleteComment(deps, b, node, deletedComment.id)
  const scenario = await createScenario(deps, b, { adviceSetId: set.id, name: 'Starter scenario', inputs: { Age: 70 } })
  const entity = await createVariable(db, other.owner, 'Starter_var', { adviceSetId: set.id })
  const media = await createLinkSupplement(deps, b, { url: 'https://example.com/starter-source', name: 'Starter source' })
  await linkSupplement(deps, b, media.id, { targetType: 'ruleNode', targetId: node })
  const visualization = await uploadSupplement(deps, b, (async function* () {
    yield { kind: 'file' as const, field: 'file', filename: 'starter-reference.html', stream: Readable.from([Buffer.from(`<!doctype html><p>${B_MARKER} starter reference</p>`)]) }
  })())
  await linkSupplement(deps, b, visualization.id, { targetType: 'adviceSet', targetId: set.id })
  const adviceRequest = await recordAdviceRequest(deps, b, set.id, { text: `${B_MARKER} starter request` })
  const { key } = await createApiKey(db, { ownerId: other.owner, name: 'Starter key', rateLimit: 100_000 })
  return {
    ...other, set: set.id, rule: rule.id, node, comment: comment.id, deletedComment: deletedComment.id, version: version.id, scenario: scenario.id,
    entity: entity.id, media: media.id, visualization: visualization.id, adviceRequest: adviceRequest.id, apiKey: key.id,
    recentItem: await recentItemOf(deps, b, set.id), activity: await deletionOf(db, deletedComment.id),
    marker: 'Starter', formula: (await createFormula(db, other.owner, 'Starter_formula', '1 + 1', { adviceSetId: set.id })).id,
  }
}

/**
 * The readable third object: B's public advice set with its children (readable by every team, writable by B), and
 * for things an owner keeps for itself (dictionary, external APIs, supplements, tags…) the provider's, which every
 * team reads and only provider admins change. Nothing here carries a marker: everyone may see it.
 */
async function buildPublicSide(deps: Deps, db: Db, b: string, users: World['users'], secretKey: string): Promise<BuiltSide> {
  const bAdmin = actorOf(users.otherAdmin)
  const tf = actorOf(users.providerAdmin)
  const { set, rule, ids } = await retirementSet(db, b, { name: 'Globex public set', isPublic: true })
  const node = Number(ids.retire)
  const version = await publishVersion(db, { adviceSetId: set.id, actorUserId: users.otherAdmin.id })
  const comment = await addComment(deps, bAdmin, node, { body: 'Public comment' })
  const deletedComment = await addComment(deps, bAdmin, node, { body: 'Public deleted comment' })
  await deleteComment(deps, bAdmin, node, deletedComment.id)
  const scenario = await createScenario(deps, bAdmin, { adviceSetId: set.id, name: 'Public scenario', inputs: { Age: 70 } })
  const entity = await createVariable(db, PROVIDER_OWNER_ID, 'Provider_var')
  const externalApi = await createExternalApiDefinition(db, secretKey, { ownerId: PROVIDER_OWNER_ID, name: 'Provider api', urlTemplate: 'https://api.example/rates' })
  const media = await createLinkSupplement(deps, tf, { url: 'https://example.com/provider', name: 'Provider link' })
  const visualization = await uploadSupplement(deps, tf, (async function* () {
    yield { kind: 'file' as const, field: 'file', filename: 'provider.html', stream: Readable.from([Buffer.from('<!doctype html><p>Provider chart</p>')]) }
  })())
  const keywordMap = await createKeywordMap(deps, tf, { name: 'Provider map', phrases: ['provider phrase'], adviceSetId: set.id })
  const tag = await createTag(deps, tf, { label: 'Provider tag' })
  const category = await createCategory(deps, tf, { name: 'Provider category' })
  const audience = await createAudience(deps, tf, PROVIDER_OWNER_ID, { name: 'Provider audience' })
  const adviceRequest = await recordAdviceRequest(deps, bAdmin, set.id, { text: 'Public request' })
  const { key } = await createApiKey(db, { ownerId: PROVIDER_OWNER_ID, name: 'Provider key', rateLimit: 100_000 })
  const job = await startExportJob(deps, tf, await planExport(deps, tf, 'questions', 'csv'))
  // A provider user who is not its admin: the one a provider admin may look at and impersonate (never oneself).
  const providerAuthor = await createUser(db, { ownerId: PROVIDER_OWNER_ID, role: 'author', name: 'Pia Provider' })
  return {
    owner: PROVIDER_OWNER_ID, set: set.id, rule: rule.id, node, comment: comment.id, deletedComment: deletedComment.id, version: version.id,
    scenario: scenario.id, entity: entity.id, externalApi: externalApi.id, media: media.id, visualization: visualization.id,
    keywordMap: keywordMap.id, tag: tag.id, category: category.id, audience: audience.id, adviceRequest: adviceRequest.id,
    apiKey: key.id, job: job.id, user: providerAuthor.id, recentItem: await recentItemOf(deps, tf, set.id), activity: await deletionOf(db, deletedComment.id),
    marker: 'Provider', formula: (await createFormula(db, PROVIDER_OWNER_ID, 'Provider_formula', '1 + 1')).id,
  }
}

export type Spawnable = 'set' | 'rule' | 'node' | 'entity' | 'externalApi' | 'media' | 'visualization' | 'keywordMap' | 'tag' | 'category' | 'audience' | 'adviceRequest' | 'apiKey' | 'comment' | 'scenario'
const SET_FAMILIES = new Set<Spawnable>(['set', 'rule', 'node', 'adviceRequest', 'comment', 'scenario'])
let spawned = 0

/**
 * A new object of a family on a side of the world, for a cell that destroys or moves its object: the side's ids with
 * that one replaced. The public side's set children are B's (its public set), its other things the provider's.
 */
export async function spawn(app: FastifyInstance, world: World, kind: ObjectKind, family: Spawnable, opts: { deleted?: boolean } = {}): Promise<Side> {
  const side = await spawnLive(app, world, kind, family)
  if (opts.deleted) await deleteSpawned(app.deps, actorOf(adminFor(world, kind, family)), side, family)
  return side
}

/** Who makes (and deletes) a spare: the owner's admin of the side; on the public side B's for set children, else the provider's. */
function adminFor(world: World, kind: ObjectKind, family: Spawnable): TestUser {
  return kind === 'other' || kind === 'starter' || (kind === 'public' && SET_FAMILIES.has(family)) ? world.users.otherAdmin
    : kind === 'public' ? world.users.providerAdmin : world.users.ownerAdmin
}

/** Deletes a spare the way its owner would, for a cell that restores it. */
async function deleteSpawned(deps: Deps, actor: Actor, side: Side, family: Spawnable): Promise<void> {
  switch (family) {
    case 'set': return deleteAdviceSet(deps, actor, side.set)
    case 'rule': return deleteRule(deps, actor, side.rule)
    case 'node': await deleteNode(deps, actor, side.rule, side.node); return
    case 'scenario': return deleteScenario(deps, actor, side.scenario)
    case 'externalApi': return deleteExternalApi(deps, actor, side.externalApi)
    case 'keywordMap': return deleteKeywordMap(deps, actor, side.keywordMap)
    case 'media': return deleteSupplement(deps, actor, side.media)
    case 'visualization': return deleteSupplement(deps, actor, side.visualization)
    case 'comment': return deleteComment(deps, actor, side.node, side.comment)
    default: throw new Error(`no deletion for a spare ${family}`)
  }
}

async function spawnLive(app: FastifyInstance, world: World, kind: ObjectKind, family: Spawnable): Promise<Side> {
  const deps = app.deps
  const db = deps.db
  const side = world.sides[kind === 'none' ? 'own' : kind]
  spawned += 1
  // Spares carry no marker: a provider admin's copy of one is the provider's, which every team may read.
  const marker = `${kind === 'none' ? 'own' : kind}_spare`
  const name = `${marker} ${spawned}`
  const actor = actorOf(adminFor(world, kind, family))
  const owner = actor.ownerId
  switch (family) {
    case 'set': return { ...side, set: (await createAdviceSetRow(db, { ownerId: owner, name, isPublic: kind === 'public', isStarter: kind === 'starter' })).id }
    case 'rule': case 'node': {
      const { rule, nodes } = await buildRule(db, side.set, name, [{ type: 'advice', headline: name }])
      return { ...side, rule: rule.id, node: nodes[0]!.id }
    }
    case 'entity': return { ...side, entity: (await createVariable(db, owner, `${marker}_${spawned}`)).id }
    case 'externalApi': return { ...side, externalApi: (await createExternalApiDefinition(db, deps.config.secretKey, { ownerId: owner, name, urlTemplate: 'https://api.example/rates' })).id }
    case 'media': return { ...side, media: (await createLinkSupplement(deps, actor, { url: 'https://example.com/spare', name })).id }
    case 'visualization': return {
      ...side, visualization: (await uploadSupplement(deps, actor, (async function* () {
        yield { kind: 'file' as const, field: 'file', filename: `spare-${spawned}.html`, stream: Readable.from([Buffer.from(`<!doctype html><p>${name}</p>`)]) }
      })())).id,
    }
    case 'keywordMap': return { ...side, keywordMap: (await createKeywordMap(deps, actor, { name, phrases: [`spare phrase ${spawned}`], adviceSetId: side.set })).id }
    case 'tag': return { ...side, tag: (await createTag(deps, actor, { label: name })).id }
    case 'category': return { ...side, category: (await createCategory(deps, actor, { name })).id }
    case 'audience': return { ...side, audience: (await createAudience(deps, actor, owner, { name })).id }
    case 'adviceRequest': return { ...side, adviceRequest: (await recordAdviceRequest(deps, actor, side.set, { text: name })).id }
    case 'apiKey': return { ...side, apiKey: (await createApiKey(db, { ownerId: owner, name })).key.id }
    case 'comment': return { ...side, comment: (await addComment(deps, actor, side.node, { body: name })).id }
    case 'scenario': return { ...side, scenario: (await createScenario(deps, actor, { adviceSetId: side.set, name, inputs: { Age: 70 } })).id }
  }
}
