// The rows of the route authorization matrix: one per registered route (method + url as registered), naming its
// access profile (test/api/app/authorization-access.ts) and, where the defaults do not fit, what `:id` is, the body
// or query to send (from the cell's side, so the object column means what it says), a fresh object per cell for routes
// that destroy theirs (deleted first for routes that restore it), or the statuses a cell expects instead.
import type { Access, Expect, PublicIs, StarterIs } from './authorization-access.ts'
import { indexedSearchObject, passwordToken, type ObjectKind, type Principal, type Side, type Spawnable, type World } from './authorization-world.ts'
import { PROVIDER_OWNER_ID, type Actor, type Deps } from '../../../src/services/context.ts'
import { linkSupplement } from '../../../src/services/files/links.ts'
import { entities, ruleNodes } from '../../../src/db/schema/index.ts'
import { insertNode } from '../../../src/db/queries/rule-nodes.ts'
import { eq } from 'drizzle-orm'
import type { Agent } from '../../helpers/agent.ts'
import { HTML_PAGE, type UploadFile } from '../../helpers/uploads.ts'

/** What a row's body or query may use besides the cell's side: the side before a fresh object replaced one of its ids, who asks, and the world. */
export interface CellContext { base: Side; who: Principal; world: World }

export interface Row {
  access: Access
  /** What `:id` (and a body's or query's `id`) names, when the route's prefix does not say. */
  id?: keyof Side
  /** What the "public" column is: B's public set (and its children), or a provider object every team reads, or one only provider admins see. */
  publicIs?: PublicIs
  /** What the "starter" column is, when starterKindOf's default does not say: content every team reads, or B's own. */
  starterIs?: StarterIs
  query?: (s: Side, c: CellContext) => Record<string, string | number>
  body?: (s: Side, c: CellContext) => unknown
  /** A new object of this family for each cell let through, for routes that delete or move theirs (denied cells use the shared one, which they must leave as it was). */
  fresh?: Spawnable
  /** The fresh object is deleted by its owner first (routes that restore it). */
  deleted?: boolean
  /** Each cell signs in its own agent (routes that end or change the session). */
  freshAgent?: boolean
  /** A body naming another owner's object may be refused as a bad field (400) where 403/404 is expected. */
  deny400?: boolean
  /** Readies a cell's object before a principal let through asks (e.g. links it, for a route that unlinks), as that principal. */
  prepare?: (deps: Deps, actor: Actor, s: Side) => Promise<unknown>
  /** Readies the cell's own agent before a principal let through asks (e.g. starts what the route stops). */
  prepareAgent?: (agent: Agent, s: Side) => Promise<unknown>
  /** Path params of the row's own for each cell (e.g. a real one-time token), before the filler's. */
  params?: (deps: Deps) => Promise<Record<string, string>>
  /** The file of a multipart upload (the body's fields go with it as form fields). */
  upload?: (s: Side) => UploadFile
  /** Runs after every other row (it rewrites its set's content). */
  last?: boolean
  /** Cells whose expected status differs from the profile's, with the reason in a comment. */
  expect?: Partial<Record<Principal, Partial<Record<ObjectKind, Expect>>>>
}

/** Not authorization-relevant: static files (the bundle and the embed script) are public by design. */
export const EXCLUDED = new Set(['GET /static/*', 'GET /static/embed.js'])

const visitor: Row = { access: 'public' }
const teamRead: Row = { access: 'read' }
const teamWrite: Row = { access: 'write' }
const adminRead: Row = { access: 'admin' }
const adminWrite: Row = { access: 'admin' }
const providerOnly: Row = { access: 'provider' }
const partner: Row = { access: 'partner' }
/** Pages that show a form to change or create something: for those who may write. */
const editPage: Row = { access: 'write' }
/** Reads that are computations (runs, previews, generated branches): a POST any reader may make. */
const teamRun: Row = { access: 'read' }
const copy: Row = { access: 'copy' }
const self: Row = { access: 'self' }
const signedIn: Row = { access: 'signedIn' }
/**
 * Children of a public or starter set that only its own team reads (canCollaborateOnSet): publishing, requests for
 * advice, analytics, and its collaboration data (comments, the set's activity and deleted lists, recent items).
 */
const teamOnly = (row: Row): Row => ({ ...row, publicIs: 'teamOnly' })
let named = 0
/** A fresh name for a form that creates or renames (names are unique per owner or set). */
const aName = (prefix = 'Matrix probe') => `${prefix} ${++named}`

/** A bulk edit that sets a set's starter flag to what it is: the starter column's set stays a starter for the rows after. */
const keepsStarter = (c: CellContext) => c.base === c.world.sides.starter

/** A fresh address for a form that creates an account (addresses are unique). */
const anEmail = () => `probe-${++named}@example.test`
/** A password the rules accept (long enough, not a common one). */
const PROBE_PASSWORD = 'Matrix-probe-pw-7Q'
/** A password change to the password one already has: the form is valid and the world's sign-ins keep working. */
const samePassword = (_: Side, c: CellContext) => {
  const password = c.who in c.world.users ? c.world.users[c.who as keyof World['users']].password : PROBE_PASSWORD
  return { current: password, password, confirm: password }
}

/** A decision table to import (CSV; its variable need not be in the dictionary: that is a warning). */
const aTable = (): UploadFile => ({ filename: 'matrix-table.csv', data: Buffer.from('{{Matrix_age}},Headline\n>= 65,Old\n-,Young\n'), type: 'text/csv' })
/** The fresh rule's one Advice node put under a Condition (Always): a one-row decision table that exports. */
const asTable = async (deps: Deps, _actor: Actor, s: Side) => {
  await deps.db.update(ruleNodes).set({ type: 'conditionAlways', headline: null }).where(eq(ruleNodes.id, s.node))
  await insertNode(deps.db, {
    ruleId: s.rule, parentId: s.node, position: 0, type: 'advice', headline: 'Row', expression: null, variable: null, text: null, question: null,
    calledRuleId: null, apiId: null, tags: [], sources: [], createdBy: null,
  })
}

/** An interactive chart to upload (an HTML page), named afresh. */
/** The smallest advice-set@1 document: a set with one rule holding one advice node. */
const aSetFile = (): UploadFile => ({
  filename: 'matrix-set.json', type: 'application/json',
  data: Buffer.from(JSON.stringify({
    format: 'advice-set@1', adviceSet: { name: aName(), nameAlt: '', description: '', category: null, isPublic: false, tags: [], supplements: [] }, version: null,
    dictionary: [], rules: [{ key: 'r1', name: 'Only', onlyWhenCalled: false, nodes: [{ key: 'n1', type: 'advice', headline: 'Hello', children: [] }] }],
    scenarios: [], keywordMaps: [], externalApis: [], supplements: [],
  })),
})
const aChart = (): UploadFile => ({ filename: `${aName('matrix-chart').replace(' ', '-')}.html`, data: HTML_PAGE, type: 'text/html' })

/** The side whose library and audiences the cell's set belongs to: the public column's set is B's, though its other things are the provider's. */
const setOwnerSide = (s: Side, c: CellContext): Side => s.owner === PROVIDER_OWNER_ID ? c.world.sides.other : s
/** The public column's dictionary entry or keyword map is the provider's, which no set of the world belongs to. */
const providers = (s: Side) => s.owner === PROVIDER_OWNER_ID
/** The role the side's `user` already has (its admin; the provider side's author), so a role change changes nothing. */
const sameRole = (s: Side) => providers(s) ? 'author' : 'admin'
/** A member action of the team page: on the side's `user`, whom only their own team (and the provider) may see. */
const memberAction: Row = { ...adminWrite, id: 'user', publicIs: 'providerPrivate', starterIs: 'team', body: () => ({ next: '/user/team' }) }
/** A fresh dictionary name (letters, digits and underscores). */
const aReservedName = () => aName('Matrix_probe').replace(' ', '_')

/** Linking a provider's tag or supplement (the public column) to B's public set writes B's own set: B's admin may. */
const setOwnerTags: Row['expect'] = { otherAdmin: { public: 'ok' } }

/** Export and other owner-scoped admin routes name an owner: another owner's is refused (403) like the role is. */
const ownerScoped = (row: Row): Row => ({ ...row, expect: { otherAdmin: { own: 403, public: 403 }, ownerAdmin: { other: 403, public: 403, starter: 403 } } })
/**
 * Subject rights over decision records name the owner whose records are searched (the side's): its admins, and provider
 * admins for any owner; another owner's is not found. The public column is the provider's own. The side's variable is
 * made personal before a cell let through asks, so the body is valid.
 */
const subjectRights: Row = {
  access: 'admin', publicIs: 'providerPrivate', starterIs: 'team',
  prepare: (deps, _actor, s) => deps.db.update(entities).set({ personal: true }).where(eq(entities.id, s.entity)),
  body: (s) => ({ ownerId: s.owner, variable: `${s.marker}_var`, value: 'someone@example.test' }),
}

/** Every signed-in person answers the same (the route's answer to the probe, whoever asks). */
const everyone = (status: number, kinds: ObjectKind[] = ['none']): Row['expect'] => Object.fromEntries(
  (['viewer', 'author', 'ownerAdmin', 'providerAdmin', 'otherAdmin'] as const).map((who) => [who, Object.fromEntries(kinds.map((k) => [k, status]))]))

/** Things every team reads when the provider owns them (canReadOwned); anything else a provider owns is private to it. */
const PROVIDER_SHARED = /^\/(api\/entity|card|admin\/dictionary|api\/supplements|media|visualizations|api\/tags|admin\/tag|api\/adviceset\/category|library\/categories)\b/
const PROVIDER_PRIVATE = /^\/(api\/external-api|api-manager|api\/owner|api\/job|admin\/apikey|api\/admin\/apikey|api\/user|profile|admin\/keywordMap|api\/keywordmap|api\/recentitem)\b/

export function publicKindOf(url: string, row: Row): NonNullable<Row['publicIs']> {
  if (row.publicIs) return row.publicIs
  if (PROVIDER_PRIVATE.test(url)) return 'providerPrivate'
  return PROVIDER_SHARED.test(url) ? 'providerShared' : 'publicSet'
}

/**
 * The starter column's object (authorization-world.ts buildStarterSide): the set, its rules, nodes, scenarios, the
 * dictionary entries kept for it and the supplement linked to its node (`media`) are content every team reads; what
 * its team keeps (teamOnly rows), the supplement linked to the set itself (`visualization`), B's library (tags,
 * categories, keys, APIs, maps…) and the Advice API (a partner key reads its own, the provider's and public sets) are B's.
 */
const STARTER_CONTENT_OF_SHARED = /^\/(api\/entity|card|admin\/dictionary|api\/supplements|media)\b/

export function starterKindOf(url: string, row: Row): StarterIs {
  if (row.starterIs) return row.starterIs
  if (row.access === 'partner' || publicKindOf(url, row) === 'teamOnly' || PROVIDER_PRIVATE.test(url)) return 'team'
  return PROVIDER_SHARED.test(url) && !STARTER_CONTENT_OF_SHARED.test(url) ? 'team' : 'content'
}

export const ROWS: Record<string, Row> = {
  'GET /api/docs': visitor,
  'GET /schemas/advice-set-1.json': visitor,
  'GET /api/advice/:adviceSetId': partner,
  'GET /api/advice/:adviceSetId/legacy': partner,
  'POST /api/advice/:adviceSetId': partner,
  'POST /api/advice/:adviceSetId/legacy': partner,
  'POST /api/advice/:adviceSetId/events': partner,
  'POST /api/advice/:adviceSetId/ai-user-request': partner,
  'GET /api/dictionary': partner,
  /** A record of an answer: only the key that caused it reads it (B's key, for B's public and starter sets). */
  'GET /api/decision/:decisionId': teamOnly(partner),
  'GET /': teamRead,
  'GET /login': visitor,
  'POST /login': { ...visitor, freshAgent: true, expect: { ...everyone(401), anonymous: { none: 401 } } },
  'GET /signup': visitor,
  'POST /signup': { ...visitor, freshAgent: true, body: () => ({ name: aName(), email: anEmail(), password: PROBE_PASSWORD, company: '' }) },
  'GET /logout': { ...visitor, freshAgent: true },
  'POST /logout': { ...visitor, freshAgent: true, expect: { ...everyone(303), anonymous: { none: 303 } } },
  'GET /password/forgot': visitor,
  'POST /password/forgot': { ...visitor, body: () => ({ email: 'nobody@example.test' }) },
  'GET /password/reset': visitor,
  'GET /password/reset/:token': { ...visitor, params: async (deps) => ({ token: await passwordToken(deps.db, 'reset') }) }  /* a live link shows its form (a stale one is 410, tested in test/api/accounts) */,
  'POST /password/reset/:token': { ...visitor, freshAgent: true, params: async (deps) => ({ token: await passwordToken(deps.db, 'reset') }), body: () => ({ password: PROBE_PASSWORD, confirm: PROBE_PASSWORD }), expect: { ...everyone(303), anonymous: { none: 303 } } }  /* a mailed link works for whoever holds it, and signs them in as its user (so each cell has an agent of its own) */,
  'GET /password/setup': visitor,
  'GET /password/setup/:token': { ...visitor, params: async (deps) => ({ token: await passwordToken(deps.db, 'setup') }) }  /* as above */,
  'POST /password/setup/:token': { ...visitor, freshAgent: true, params: async (deps) => ({ token: await passwordToken(deps.db, 'setup') }), body: () => ({ password: PROBE_PASSWORD, confirm: PROBE_PASSWORD }), expect: { ...everyone(303), anonymous: { none: 303 } } }  /* as above */,
  'GET /password/edit': self,
  'POST /password/edit': { ...self, body: samePassword }  /* the change keeps the asking session (the shared agent's) and ends the others */,
  'GET /profile/password': self,
  'POST /profile/password': { ...self, body: samePassword }  /* as above */,
  'GET /profile': self,
  'GET /profile/edit': self,
  'POST /profile/tokens': { ...self, body: () => ({ name: aName('Matrix token'), scopes: 'export' }) },
  'POST /profile/tokens/:tokenId/revoke': { ...self, expect: everyone(404) }  /* as DELETE /api/user/tokens/:id */,
  'POST /profile/edit': self,
  'GET /user/team': teamRead,
  'GET /user/new': adminRead,
  /** The team's own settings: no object in the path (the actor's own owner), so only the access profile decides. */
  'POST /user/team/settings': { ...adminWrite, body: () => ({ selfApprovalAllowed: 'false' }) },
  'POST /user/team/decisions': { ...adminWrite, body: () => ({ decisionMode: 'best_effort', decisionRetentionDays: '365' }) },
  'POST /user/new': { ...adminWrite, body: () => ({ name: aName(), email: anEmail(), role: 'author' }) },
  /**
   * Managing a member (the cell's side's `user`: A's and B's sole admin, the provider's author). The role sent is the one
   * they have, and reactivating or resending for an active member changes nothing: the cells test who may ask, not the
   * change. Deactivating the last admin or oneself is a 409; the provider admin deactivates the provider's author, so
   * that row runs last.
   */
  'POST /user/team/:id/role': { ...memberAction, body: (s) => ({ role: sameRole(s), next: '/user/team' }) },
  'POST /user/team/:id/deactivate': { ...memberAction, last: true },
  'POST /user/team/:id/reactivate': memberAction,
  'POST /user/team/:id/resend-invitation': memberAction,
  'POST /user/team/:id/cancel-invitation': memberAction,
  'GET /admin/users': providerOnly,
  'GET /admin/users/new': providerOnly,
  'POST /admin/users/new': { ...providerOnly, body: (s) => ({ name: aName(), email: anEmail(), role: 'author', ownerId: s.owner }) },
  'GET /library': teamRead,
  'GET /library/classic': teamRead,
  'GET /explore': teamRead,
  'GET /library/bulkeditor': teamRead,
  'POST /library/bulkeditor': { ...teamWrite, deny400: true, body: (s, c) => ({ ids: String(s.set), isStarter: String(keepsStarter(c)) }) }  /* the form refuses sets the asker may not change as a bad field (ids), before any change */,
  'POST /library/bulkeditor/confirm': { ...teamWrite, body: (s, c) => ({ ids: String(s.set), isStarter: String(keepsStarter(c)) }) },
  'POST /library/categories': { ...teamWrite, body: () => ({ name: aName() }) },
  'POST /library/categories/:id/delete': { ...teamWrite, fresh: 'category', publicIs: 'providerPrivate' },
  'GET /library/search': teamRead,
  'GET /adviceset/new': editPage,
  'GET /adviceset/import': editPage,
  'POST /adviceset/new': { ...teamWrite, body: () => ({ name: aName() }) },
  'GET /adviceset/:id/show': teamRead,
  'GET /adviceset/:id/show/header': teamRead,
  'GET /adviceset/:id/show/sidebar': teamRead,
  'GET /adviceset/:id/show/modal/details': teamRead,
  'GET /adviceset/:id/edit': editPage,
  'POST /adviceset/:id/edit': teamWrite,
  'POST /adviceset/:id/copy': { ...copy, fresh: 'set' },
  'POST /adviceset/:id/transfer': { ...providerOnly, fresh: 'set', body: () => ({ ownerId: PROVIDER_OWNER_ID }) },
  'POST /adviceset/:id/tags/add': { ...teamWrite, body: (s) => ({ tagId: String(s.tag) }) },
  'POST /adviceset/:id/tags/remove': { ...teamWrite, body: (s) => ({ tagId: String(s.tag) }) },
  'GET /adviceset/:id/confirm-delete': editPage,
  'POST /adviceset/:id/delete': { ...teamWrite, fresh: 'set' },
  'GET /adviceset/:id/rule/new': editPage,
  'POST /adviceset/:id/rule/new': { ...teamWrite, body: () => ({ name: aName() }) },
  'GET /adviceset/:id/rule/:ruleId/show': teamRead,
  'GET /adviceset/:id/rule/:ruleId/part/:nodeId': teamRead,
  'GET /adviceset/:id/rule/:ruleId/show/header': teamRead,
  'GET /adviceset/:id/rule/:ruleId/show/tree': teamRead,
  'POST /adviceset/:id/rule/:ruleId/rename': { ...teamWrite, body: () => ({ name: aName() }) },
  'POST /adviceset/:id/rule/:ruleId/move': { ...teamWrite, body: () => ({ direction: 'down' }) },
  // 'false' keeps the world's rules running on their own: a rule that ran only when called would leave later rows
  // (the tree builder's fork) with a draft that asks nothing.
  'POST /adviceset/:id/rule/:ruleId/only-when-called': { ...teamWrite, body: () => ({ onlyWhenCalled: 'false' }) },
  'POST /adviceset/:id/rule/:ruleId/copy': teamWrite,
  'POST /adviceset/:id/rule/:ruleId/promote': { ...teamWrite, fresh: 'rule' },
  'GET /adviceset/:id/rule/confirm-delete': editPage,
  'POST /adviceset/:id/rule/:ruleId/delete': { ...teamWrite, fresh: 'rule' },
  'POST /adviceset/:id/rule/:ruleId/recover': { ...teamWrite, fresh: 'rule', deleted: true },
  'GET /adviceset/:id/rule/selector': teamRead,
  'GET /adviceset/:id/rule/copyselector': teamRead,
  'GET /adviceset/:id/rule/apiselector': teamRead,
  'GET /activity': teamRead,
  'GET /adviceset/:id/activity': teamOnly(teamRead),
  'GET /adviceset/:id/decisions': teamOnly(teamRead),
  'GET /adviceset/:id/decisions/:decisionId': teamOnly(teamRead),
  'POST /activity/:id/restore': teamOnly({ ...teamWrite, expect: { author: { own: 403 } } })  /* authors change their own comments only (these are A's admin's) */,
  'GET /admin/dictionary': signedIn,
  'GET /admin/dictionary/list': signedIn,
  'GET /card/:type': editPage,
  'POST /card/:type': { ...teamWrite, body: () => ({ reservedName: aName('Matrix_probe').replace(' ', '_'), dataType: 'number' }) },
  'GET /card/:type/:entityId': teamRead,
  'GET /card/:type/:entityId/edit': { ...editPage, publicIs: 'providerShared' },
  'POST /card/:type/:entityId/edit': { ...teamWrite, body: (s, c) => ({ reservedName: `${s.marker}_var`, dataType: 'number', ...(keepsStarter(c) ? { adviceSetId: String(s.set) } : {}) }) }  /* the form resends the entry's set: the starter column's entry is kept for its set */,
  'POST /card/:type/:entityId/delete': { ...teamWrite, fresh: 'entity' },
  'GET /adviceset/:id/rule/debug': teamRead,
  'POST /adviceset/:id/rule/debug': teamRun,
  'GET /adviceset/:id/rule/debug/tree': teamRead,
  'GET /adviceset/:id/embed': teamRead,
  'GET /admin/apikey': adminRead,
  'GET /admin/apikey/new': adminRead,
  'POST /admin/apikey/new': { ...adminWrite, body: () => ({ name: aName(), environment: 'production' }) },
  'GET /admin/apikey/:keyId/copy': adminRead,
  'GET /admin/apikey/:keyId/edit': adminRead,
  'POST /admin/apikey/:keyId/edit': { ...adminWrite, body: (s) => ({ name: `${s.marker} key` }) },
  'POST /admin/apikey/:keyId/rotate': { ...adminWrite, body: () => ({ graceHours: '1' }) },
  'POST /admin/apikey/:keyId/delete': { ...adminWrite, fresh: 'apiKey' },
  'GET /admin/apikey/:keyId/usage': adminRead,
  'GET /adviceset/:id/publish': teamOnly(teamRead),
  'GET /adviceset/:id/publish/versions': teamOnly(teamRead),
  'GET /adviceset/:id/publish/versions/:versionId': teamOnly(teamRead),
  'GET /adviceset/:id/publish/versions/:versionId/coverage': teamOnly(teamRead),
  'POST /adviceset/:id/publish/versions/:versionId/coverage': teamOnly(teamRun)  /* starts computing the coverage a reader sees */,
  'POST /adviceset/:id/publish/versions/:versionId/replay': teamOnly(teamRun)  /* starts a replay job (nothing of the world is published: 409) */,
  'GET /adviceset/:id/publish/assign': teamOnly(teamRead),
  'POST /adviceset/:id/publish/create': teamWrite,
  'POST /adviceset/:id/publish/versions/:versionId/action': { ...teamWrite, body: () => ({ action: 'submit' }) },
  'POST /adviceset/:id/publish/versions/:versionId/restore': teamOnly({ ...teamWrite, last: true }),
  'POST /adviceset/:id/publish/assign': teamWrite,
  'POST /adviceset/:id/publish/audience': teamOnly(teamWrite),
  'POST /adviceset/:id/publish/audience/:audienceId': teamOnly({ ...teamWrite, expect: { providerAdmin: { public: 404 }, otherAdmin: { public: 404 } } })  /* the public column's audience is the provider's, not of the set's owner */,
  'GET /api-manager': teamRead,
  'GET /api-manager/new': editPage,
  'POST /api-manager/new': { ...teamWrite, body: () => ({ name: aName(), urlTemplate: 'https://api.example/rates' }) },
  'GET /api-manager/:id/edit': teamRead,
  'POST /api-manager/:id/edit': { ...teamWrite, body: () => ({ name: aName(), urlTemplate: 'https://api.example/rates' }) },
  'POST /api-manager/:id/delete': { ...teamWrite, fresh: 'externalApi' },
  'GET /adviceset/:id/advicescenario/index': teamRead,
  'POST /adviceset/:id/advicescenario/test': teamWrite,
  'GET /adviceset/:id/advicescenario/new': editPage,
  'POST /adviceset/:id/advicescenario/new': { ...teamWrite, body: () => ({ name: aName() }) },
  'GET /adviceset/:id/advicescenario/:scenarioId/show': teamRead,
  'GET /adviceset/:id/advicescenario/:scenarioId/edit': editPage,
  'GET /adviceset/:id/advicescenario/:scenarioId/copy': editPage,
  'POST /adviceset/:id/advicescenario/:scenarioId/edit': { ...teamWrite, body: () => ({ name: aName() }) },
  'POST /adviceset/:id/advicescenario/:scenarioId/copy': teamWrite,
  'GET /adviceset/:id/advicescenario/:scenarioId/delete': editPage,
  'POST /adviceset/:id/advicescenario/:scenarioId/delete': { ...teamWrite, fresh: 'scenario' },
  'POST /adviceset/:id/advicescenario/:scenarioId/restore': { ...teamWrite, fresh: 'scenario', deleted: true },
  'GET /adviceset/:id/advicescenario/tree': teamRead,
  'POST /adviceset/:id/advicescenario/tree': { ...teamWrite, body: (s) => ({ action: 'save', fork: String(s.scenario), question: 'Age', 'input.Age': '60', name: aName() }) },
  'GET /admin/keywordMap': adminRead,
  'POST /admin/keywordMap': { ...adminWrite, body: (s) => ({ name: aName(), phrases: aName('probe phrase'), adviceSetId: String(s.set) }), deny400: true, expect: { ownerAdmin: { public: 'ok', starter: 'ok' }, otherAdmin: { public: 'ok' } } }  /* a map of one's own may lead to any set the team reads */,
  'GET /admin/keywordMap/:keywordMapId': adminRead,
  'POST /admin/keywordMap/:keywordMapId': adminWrite,
  'POST /admin/keywordMap/:keywordMapId/delete': { ...adminWrite, fresh: 'keywordMap' },
  'POST /admin/keywordMap/:keywordMapId/restore': adminWrite,
  'GET /admin/support': providerOnly,
  'POST /admin/support/reindex': providerOnly,
  'POST /admin/support/object': { ...providerOnly, body: () => ({ objectID: 'ruleSet-999999' }) },
  'GET /admin/support/impersonate': providerOnly,
  'POST /admin/support/impersonate': { ...providerOnly, freshAgent: true, body: (s) => ({ userId: String(s.user) }) },
  'POST /admin/support/impersonate/stop': { ...providerOnly, freshAgent: true, prepareAgent: (agent, s) => agent.postForm('/admin/support/impersonate', { userId: String(s.user) }, { page: '/admin/support' }), expect: { ...everyone(400), providerAdmin: { none: 'ok' } } }  /* stops the session's impersonation, which only a provider admin can start: any other session has nothing to stop (400, nothing changed) */,
  'GET /admin/export': ownerScoped(adminRead),
  'GET /admin/decisions/subject': { ...subjectRights, body: undefined, query: (s) => ({ ownerId: s.owner }) },
  'POST /admin/decisions/subject': { ...subjectRights, body: (s) => ({ ownerId: s.owner, variable: `${s.marker}_var`, value: 'someone@example.test', action: 'find' }) },
  'POST /admin/decisions/subject/erase': subjectRights,
  'POST /api/decisions/subject/find': subjectRights,
  'POST /api/decisions/subject/export': subjectRights,
  'POST /api/decisions/subject/erase': subjectRights,
  'POST /admin/export': ownerScoped({ ...adminWrite, body: () => ({ kind: 'questions', format: 'csv' }) }),
  'POST /adviceset/:id/ai-user-request': teamOnly(teamWrite),
  // Exporting decision records is reading them: any role of the set's team (viewers too), never another owner.
  'POST /adviceset/:id/decisions/export': teamOnly({ ...teamRead, body: () => ({ format: 'csv' }) }),
  'POST /adviceset/:id/ai-user-request/:requestId': teamOnly(teamWrite),
  'POST /adviceset/:id/ai-user-request/:requestId/delete': teamOnly({ ...teamWrite, fresh: 'adviceRequest' }),
  'GET /admin/tag': adminRead,
  'POST /admin/tag': { ...adminWrite, body: () => ({ label: aName() }) },
  'GET /admin/tag/:id/edit': { ...adminRead, expect: { ownerAdmin: { public: 'ok' }, otherAdmin: { public: 'ok' } } }  /* admins see the provider's tags (fixed), and cannot save them */,
  'POST /admin/tag/:id/edit': adminWrite,
  'GET /admin/tag/:id/confirm-merge': { ...adminRead, fresh: 'tag', query: (_, c) => ({ into: String(c.base.tag) }) }  /* asks first: a tag of its own, so it is not merged into itself */,
  'GET /admin/tag/:id/confirm-delete': adminRead,
  'POST /admin/tag/:id/merge': { ...adminWrite, fresh: 'tag', body: (_, c) => ({ into: String(c.base.tag) }) },
  'POST /admin/tag/:id/delete': { ...adminWrite, fresh: 'tag' },
  'GET /adviceset/:ruleSetId/advicescenario/gen-branches': teamRead,
  'GET /adviceset/:ruleSetId/advicescenario/gen-branches/:id': teamRead,
  'POST /adviceset/:ruleSetId/advicescenario/gen-branches': teamRun,
  'POST /adviceset/:ruleSetId/advicescenario/gen-branches/tasks/:taskId/cancel': { ...teamRead, expect: everyone(404, ['own', 'other', 'public', 'starter']) }  /* as above */,
  'GET /adviceset/:ruleSetId/advicescenario/gen-branches/compare': teamRead,
  'POST /adviceset/:ruleSetId/advicescenario/gen-branches/compare/replay': teamOnly(teamRun)  /* replays recorded answers on the draft, for the team (nothing published: 409) */,
  'POST /adviceset/:ruleSetId/advicescenario/gen-branches/compare': { ...teamRun, body: () => ({ base: 'draft', next: 'draft' }) }  /* nothing of the world's sets is published: compare the draft with itself */,
  'GET /adviceset/:ruleSetId/advicescenario/gen-summary': teamRead,
  'GET /media': teamRead,
  'GET /media/new': editPage,
  'POST /media/new': { ...teamWrite, body: () => ({ url: 'https://example.com/probe', name: aName() }), expect: { ownerKey: { none: 401 }, otherKey: { none: 401 } } }  /* multipart: the session check answers before the CSRF field is read */,
  'GET /media/:id/show': teamRead,
  'GET /media/:id/edit': editPage,
  'POST /media/:id/edit': teamWrite,
  'POST /media/:id/delete': { ...teamWrite, fresh: 'media' },
  'POST /media/:id/restore': { ...teamWrite, fresh: 'media', deleted: true },
  'GET /media/:id/iframe': { ...teamRead, expect: everyone(404, ['own', 'other', 'public', 'starter']) }  /* a link has no content to frame: 404 to everyone (uploads: /visualizations/:id/iframe) */,
  'GET /visualizations': teamRead,
  'GET /visualizations/new': editPage,
  'POST /visualizations/new': { ...teamWrite, upload: aChart, body: () => ({ name: aName() }), expect: { ownerKey: { none: 401 }, otherKey: { none: 401 } } }  /* multipart: the session check answers before the CSRF field is read */,
  'GET /visualizations/:id/show': teamRead,
  'GET /visualizations/:id/edit': editPage,
  'POST /visualizations/:id/edit': teamWrite,
  'POST /visualizations/:id/delete': { ...teamWrite, fresh: 'visualization' },
  'POST /visualizations/:id/restore': { ...teamWrite, fresh: 'visualization', deleted: true },
  'GET /visualizations/:id/iframe': teamRead,
  'POST /api/user/preferences': { ...self, body: () => ({ newPreferences: {} }) }  /* one's own preferences (SPEC: user with preferences), whatever the role */,
  'POST /api/user/create': ownerScoped({ ...adminWrite, deny400: true, body: (s) => ({ email: anEmail(), name: aName(), role: 'author', ownerId: s.owner }) }),
  /** One's own personal access tokens: a person's token does not exist to anyone else (404), so no id the filler has is one. */
  'GET /api/user/tokens': self,
  'POST /api/user/tokens': { ...self, body: () => ({ name: aName('Matrix token'), scopes: ['export'] }) },
  'DELETE /api/user/tokens/:id': { ...self, params: async () => ({ id: '999999' }), expect: everyone(404, ['own', 'other', 'public', 'starter']) }  /* nobody's token has this id: 404 to every signed-in person; the revoke itself is test/api/accounts/access-tokens.test.ts's */,
  'GET /api/user/:id': teamRead,
  'PATCH /api/user/:id': { ...adminWrite, publicIs: 'providerPrivate' },
  /** As the team page's member actions above. */
  'PUT /api/user/:id/role': { ...adminWrite, publicIs: 'providerPrivate', body: (s) => ({ role: sameRole(s) }) },
  'POST /api/user/:id/deactivate': { ...adminWrite, publicIs: 'providerPrivate', last: true },
  'POST /api/user/:id/reactivate': { ...adminWrite, publicIs: 'providerPrivate' },
  'POST /api/user/:id/resend-invitation': { ...adminWrite, publicIs: 'providerPrivate' },
  'POST /api/user/:id/cancel-invitation': { ...adminWrite, publicIs: 'providerPrivate' },
  'GET /api/adviceset/show': teamRead,
  'GET /api/adviceset/stats': teamRead,
  'POST /api/adviceset/get-list-from-ids': teamRun,
  'GET /api/adviceset/list/inactive': teamRead,
  'GET /api/adviceset/list-advice/logic': teamRead,
  'GET /api/adviceset/unreachable': teamRead,
  'GET /api/adviceset/list-calling-advice-sets': teamRead,
  'GET /api/adviceset/logic-cache': teamRead,
  'GET /api/adviceset/list/scenarios': teamRead,
  'GET /api/adviceset/list/todoAdvice': teamRead,
  'GET /api/adviceset/list-:entityType': teamRead,
  'POST /api/adviceset': { ...teamWrite, publicIs: 'providerShared', deny400: true, body: (s, c) => ({ name: aName(), categoryId: String(c.who === 'providerAdmin' ? c.world.sides.public.category : s.category) }) }  /* the set goes into the asker's library, filed under a category of it (the provider admin's: the provider's); another library's category, the provider's too, is a bad field */,
  'POST /api/adviceset/copy': copy,
  'GET /api/adviceset/:id/export': teamOnly(teamRead),
  'POST /api/adviceset/import': { ...teamWrite, upload: aSetFile, query: (s) => ({ into: s.set, dryRun: 'true' }) }  /* a dry run into the side's set: writing that set is what it takes */,
  'POST /api/adviceset/transfer': { ...providerOnly, fresh: 'set', body: (s) => ({ id: String(s.set), ownerId: PROVIDER_OWNER_ID }) },
  'POST /api/adviceset/bulk': { ...teamWrite, body: (s, c) => ({ ids: [s.set], isStarter: keepsStarter(c) }) },
  'GET /api/adviceset/category': teamRead,
  'POST /api/adviceset/category': teamWrite,
  'GET /api/adviceset/category/:id': { ...teamRead, publicIs: 'providerShared' },
  'PATCH /api/adviceset/category/:id': { ...teamWrite, publicIs: 'providerPrivate' },
  'DELETE /api/adviceset/category/:id': { ...teamWrite, fresh: 'category', publicIs: 'providerPrivate' },
  'GET /api/adviceset/:id': teamRead,
  'PATCH /api/adviceset/:id': { ...teamWrite, body: (s, c) => ({ name: aName(), categoryId: String(setOwnerSide(s, c).category) }) }  /* filed under a category of the set's own library */,
  'DELETE /api/adviceset/:id': { ...teamWrite, fresh: 'set' },
  'POST /api/adviceset/:id/recover': { ...teamWrite, fresh: 'set', deleted: true },
  'GET /api/adviceset/publish': teamOnly(teamRead),
  'GET /api/adviceset/:id/decisions': teamOnly(teamRead),
  'POST /api/adviceset/publish': teamWrite,
  'POST /api/adviceset/replay': teamOnly({ ...teamRun, body: (s) => ({ adviceSetId: s.set, target: 'draft' }) })  /* recorded answers on the draft, for the team (nothing published: 409) */,
  'POST /api/adviceset/unpublish': teamOnly({ access: 'admin', expect: { ownerAdmin: { public: 403, starter: 403 } } })  /* the body names a version, which readers of the set see (catalog) but may not change */,
  'GET /api/adviceset/publish-config': teamOnly(teamRead),
  'PUT /api/adviceset/publish-config': teamOnly({ access: 'admin', body: (s, c) => ({ adviceSetId: String(s.set), audienceId: String(setOwnerSide(s, c).audience), versionId: String(s.version) }) })  /* an audience of the set's owner */,
  'GET /api/adviceset/publish-config/:keyId': teamOnly({ access: 'admin', expect: { viewer: { own: 404 }, author: { own: 404 }, otherAdmin: { public: 404 } } })  /* keys are hidden from non-admins; the public column's key is the provider's */,
  'POST /api/adviceset/restore/:versionId': { ...teamWrite, last: true },
  'POST /api/adviceset/generate-branches': teamRun,
  'POST /api/adviceset/generate-branches/compare': { ...teamRun, body: (s) => ({ adviceSetId: s.set, base: 'draft' }) },
  'GET /api/adviceset/generate-branches/tasks/:taskId': { ...teamRead, expect: everyone(404) }  /* no branch task exists in this world (they start only for sets too large to answer at once) */,
  'GET /api/adviceset/generate-branches/tasks/:taskId/result': { ...teamRead, expect: everyone(404) }  /* no branch task exists in this world (they start only for sets too large to answer at once) */,
  'POST /api/adviceset/generate-branches/tasks/:taskId/cancel': { ...teamRead, expect: everyone(404) }  /* as above */,
  'GET /api/adviceset/generate-summary': teamRead,
  'POST /api/adviceset/generate-summary': teamRun,
  'GET /api/tags': teamRead,
  'POST /api/tags': teamWrite,
  'GET /api/tags/:id': { ...teamRead, expect: { providerAdmin: { own: 404, other: 404, starter: 404 } } }  /* a tag is read where it is used: the owner's and the provider's */,
  'PATCH /api/tags/:id': adminWrite,
  'DELETE /api/tags/:id': { ...adminWrite, fresh: 'tag' },
  'POST /api/tags/:id/merge': { ...adminWrite, fresh: 'tag', body: (_, c) => ({ into: c.base.tag }) },
  'POST /api/tags/:id/link': { ...teamWrite, starterIs: 'content', body: (s) => ({ entityType: 'adviceset', entityId: s.set }), expect: setOwnerTags }  /* tagging writes the set (as /adviceset/:id/tags/add) with a tag the asker reads; the starter column's set is read by all, so refused as not theirs (403) */,
  'POST /api/tags/:id/unlink': { ...teamWrite, starterIs: 'content', body: (s) => ({ entityType: 'adviceset', entityId: s.set }), expect: setOwnerTags }  /* as link */,
  'GET /api/activity/index': signedIn,
  'GET /api/activity/:nodeId/deleted': teamOnly(teamRead)  /* what was deleted from a place of a set: the set's team's */,
  'POST /api/activity/:id/restore': teamOnly({ ...teamWrite, expect: { author: { own: 403 } } })  /* authors change their own comments only (these are A's admin's) */,
  'GET /api/recentitem': teamRead,
  'POST /api/recentitem': teamOnly({ ...teamRead, body: (s) => ({ entityType: 'adviceset', entityId: s.set }) })  /* one's own list of what one opened, of the team's sets (recent items are collaboration data) */,
  'DELETE /api/recentitem/:id': { ...self, expect: { ...everyone(404, ['own', 'other', 'public', 'starter']), ownerAdmin: { own: 'ok', other: 404, public: 404, starter: 404 }, otherAdmin: { own: 404, other: 'ok', public: 404, starter: 'ok' }, providerAdmin: { own: 404, other: 404, public: 'ok', starter: 404 } } }  /* a recent item is in its person's own list (each column's is its side's admin's): anyone else's is not found */,
  'POST /api/search': { ...teamRun, body: () => ({ requests: [{ indexName: 'advice_updatedAt', params: { query: 'probe' } }] }) },
  'DELETE /api/admin/support/algolia/object/:objectID': { ...providerOnly, params: async (deps) => ({ objectID: await indexedSearchObject(deps) }) },
  'POST /api/rule': teamWrite,
  'GET /api/rule/stats': teamRead,
  'GET /api/rule/called-by': teamRead,
  'GET /api/rule/variables': teamRead,
  'GET /api/rule/called/:id': teamRead,
  'POST /api/rule/copy': teamWrite,
  'POST /api/rule/promote': { ...teamWrite, fresh: 'rule' },
  'POST /api/rule/debug': teamRun,
  // A dry run: the same rights as a real import (those of creating a rule in the set `into`), and nothing written.
  'POST /api/adviceset/import/table': { ...teamWrite, upload: aTable, body: (s) => ({ into: String(s.set), dryRun: 'true' }) },
  'GET /api/rule/:id/table.xlsx': { ...teamRead, fresh: 'rule', prepare: asTable },
  'GET /api/rule/:id': teamRead,
  'GET /api/rule/:id/checks': teamRead,
  'PATCH /api/rule/:id': teamWrite,
  'DELETE /api/rule/:id': { ...teamWrite, fresh: 'rule' },
  'POST /api/rule/:id/recover': { ...teamWrite, fresh: 'rule', deleted: true },
  'POST /api/rule/:id/node': { ...teamWrite, fresh: 'rule', body: () => ({ type: 'advice', headline: aName() }) },
  'POST /api/rule/:id/node/new-call': { ...teamWrite, fresh: 'rule', body: (_, c) => ({ calledRuleId: c.base.rule }) },
  'POST /api/rule/:id/node/move': { ...teamWrite, body: (s) => ({ nodeId: s.node, position: 0 }) },
  'GET /api/rule/:id/node/:nodeId': teamRead,
  'PATCH /api/rule/:id/node/:nodeId': teamWrite,
  'DELETE /api/rule/:id/node/:nodeId': { ...teamWrite, fresh: 'node' },
  'POST /api/rule/:id/node/:nodeId/copy': { ...teamWrite, fresh: 'node', body: () => ({}) },
  'POST /api/rule/:id/node/:nodeId/recover': { ...teamWrite, fresh: 'node', deleted: true },
  'GET /api/entity/text-search': teamRead,
  'GET /api/entity/typeahead': teamRead,
  'GET /api/entity/typeahead/classic': teamRead,
  'GET /api/entity/parse': signedIn,
  'GET /api/entity/parse/match': { ...teamRead, query: (s) => ({ content: '{{Age}} > 1', mode: 'condition', adviceSetId: s.set }) },
  'GET /api/entity/type/index': signedIn,
  'GET /api/entity/type/typeahead': signedIn,
  'GET /api/entity/type/:id': signedIn,
  'POST /api/entity': { ...teamWrite, publicIs: 'publicSet', deny400: true, body: (s, c) => ({ reservedName: aReservedName(), ...(c.who === 'providerAdmin' ? {} : { adviceSetId: String(s.set) }) }) }  /* an entry of the asker's dictionary, for one of the sets it reads (the provider's dictionary has no set in this world) */,
  'GET /api/entity/:id': teamRead,
  'PATCH /api/entity/:id': { ...teamWrite, body: (s) => ({ reservedName: aReservedName(), ...(providers(s) ? {} : { adviceSetId: String(s.set) }) }) }  /* an entry belongs to a set of its own owner's */,
  'DELETE /api/entity/:id': { ...teamWrite, fresh: 'entity' },
  'POST /api/entity/:id/copy': { ...copy, publicIs: 'providerShared' },
  'POST /api/entity/:id/alternate': { ...teamWrite, fresh: 'entity', body: () => ({ expression: '1 + 1' }) },
  'GET /api/entity/:id/used': teamRead,
  'GET /api/entity/:id/list-uses': teamRead,
  'GET /api/entity/:id/expand': { ...teamRead, id: 'formula' },
  'GET /api/comment/:ruleNodeId': teamOnly(teamRead),
  'POST /api/comment/:ruleNodeId': teamOnly(teamWrite),
  'GET /api/comment/:ruleNodeId/count': teamOnly(teamRead),
  'GET /api/comment/:ruleNodeId/:id': teamOnly(teamRead),
  'PATCH /api/comment/:ruleNodeId/:id': teamOnly({ ...teamWrite, expect: { author: { own: 403 } } })  /* authors change their own comments only (these are A's admin's) */,
  'DELETE /api/comment/:ruleNodeId/:id': teamOnly({ ...teamWrite, fresh: 'comment', expect: { author: { own: 403 } } })  /* authors change their own comments only (these are A's admin's) */,
  'POST /api/comment/:ruleNodeId/:id/restore': teamOnly({ ...teamWrite, fresh: 'comment', deleted: true, expect: { author: { own: 403 } } })  /* authors change their own comments only (these are A's admin's) */,
  'POST /api/admin/apikey/create': { ...adminWrite, deny400: true },
  'POST /api/admin/apikey/:keyId/rotate': { ...adminWrite, body: () => ({ graceHours: 1 }) },
  'POST /api/advice/markdown/preview': { access: 'keyOrUser' },
  'GET /api/catalog/index': teamRead,
  'GET /api/catalog/version': teamRead,
  'GET /api/catalog/version/:versionId': teamRead,
  'GET /api/catalog/advice/:ruleSetId': { ...teamRead, expect: everyone(404, ['own', 'other', 'public', 'starter']) }  /* the world's versions are approved drafts, none published: the catalog has nothing to show anyone */,
  'GET /api/catalog/advice/:ruleSetId/versions': teamRead,
  'GET /api/owner/:id': teamRead,
  'PATCH /api/owner/:id': { access: 'admin', body: () => ({ selfApprovalAllowed: false }) },
  'GET /api/owner/:id/decisions': teamRead,
  'PATCH /api/owner/:id/decisions': { access: 'admin', body: () => ({ decisionMode: 'best_effort' }) },
  'GET /api/owner/:id/audience': teamRead,
  'POST /api/owner/:id/audience': { access: 'admin' },
  'GET /api/owner/:id/audience/:audienceId': teamRead,
  'PATCH /api/owner/:id/audience/:audienceId': { access: 'admin' },
  'DELETE /api/owner/:id/audience/:audienceId': { access: 'admin', fresh: 'audience' },
  'GET /api/job': teamRead,
  'GET /api/job/:id': { ...teamRead, publicIs: 'providerPrivate', expect: { viewer: { own: 404 }, author: { own: 404 } } }  /* a job is its starter's (A's admin) */,
  'POST /api/job/:id/cancel': { ...teamWrite, publicIs: 'providerPrivate', expect: { viewer: { own: 404 }, author: { own: 404 } } }  /* a job is its starter's (A's admin) */,
  'GET /api/job/:id/download': { ...teamRead, publicIs: 'providerPrivate', expect: { viewer: { own: 404 }, author: { own: 404 } } }  /* a job is its starter's (A's admin) */,
  'GET /api/opengraph': { ...signedIn, expect: { viewer: { none: 502 }, author: { none: 502 }, ownerAdmin: { none: 502 }, providerAdmin: { none: 502 }, otherAdmin: { none: 502 } } }  /* example.com is not reachable from tests: the upstream failure (502) */,
  'GET /api/external-api/list': teamRead,
  'POST /api/external-api': { ...teamWrite, body: () => ({ name: aName(), urlTemplate: 'https://api.example/rates' }) },
  'POST /api/external-api/verify/send': { ...teamWrite, body: () => ({ definition: { name: aName(), urlTemplate: 'https://api.example/rates' } }) },
  'GET /api/external-api/:id': teamRead,
  'PATCH /api/external-api/:id': { ...teamWrite, body: () => ({ name: aName(), urlTemplate: 'https://api.example/rates' }) },
  'POST /api/external-api/:id/send': teamWrite,
  'POST /api/external-api/:id/delete': { ...teamWrite, fresh: 'externalApi' },
  'POST /api/external-api/:id/restore': { ...teamWrite, fresh: 'externalApi', deleted: true },
  'GET /api/external-api/:id/list-uses': teamRead,
  'GET /api/advicescenario/index': teamRead,
  'GET /api/advicescenario/adviceset/:ruleSetId': teamRead,
  'GET /api/advicescenario/recent': teamRead,
  'POST /api/advicescenario': teamWrite,
  'POST /api/advicescenario/test': teamWrite,
  'GET /api/advicescenario/:id': teamRead,
  'PATCH /api/advicescenario/:id': teamWrite,
  'DELETE /api/advicescenario/:id': { ...teamWrite, fresh: 'scenario' },
  'GET /api/advicescenario/:id/list-uses': teamRead,
  'POST /api/advicescenario/:id/copy': teamWrite,
  'POST /api/advicescenario/:id/fork': teamRun,
  'POST /api/advicescenario/:id/restore': { ...teamWrite, fresh: 'scenario', deleted: true },
  'GET /api/keywordmap/index': signedIn,
  'GET /api/keywordmap/adviceset/:ruleSetId': { ...teamRead, publicIs: 'publicSet', starterIs: 'content' },
  'GET /api/keywordmap/scenario/:adviceScenarioId': { ...teamRead, publicIs: 'publicSet', starterIs: 'content' },
  'POST /api/keywordmap': { ...adminWrite, body: (s) => ({ name: aName(), phrases: [aName('probe phrase')], adviceSetId: s.set }), deny400: true, expect: { ownerAdmin: { public: 'ok', starter: 'ok' }, otherAdmin: { public: 'ok' } } }  /* a map of one's own may lead to any set the team reads */,
  'GET /api/keywordmap/:id': teamRead,
  'PATCH /api/keywordmap/:id': { ...adminWrite, body: (s) => ({ name: aName(), adviceSetId: String(s.set), ...(providers(s) ? {} : { scenarioId: String(s.scenario) }) }) }  /* a map leads to a scenario only of its own team's sets */,
  'DELETE /api/keywordmap/:id': { ...adminWrite, fresh: 'keywordMap' },
  'POST /api/keywordmap/:id/restore': { ...adminWrite, fresh: 'keywordMap', deleted: true },
  'GET /api/export/activity/data.:resFormat': ownerScoped(adminRead),
  'GET /api/export/questions/data': ownerScoped(adminRead),
  'GET /api/export/questions/data.:resFormat': ownerScoped(adminRead),
  'GET /api/export/ai-user-requests/data.:resFormat': ownerScoped(adminRead),
  'GET /api/adviceset/:ruleSetId/ai-user-request': teamOnly(teamRead),
  'POST /api/adviceset/:ruleSetId/ai-user-request': teamOnly(teamWrite),
  'POST /api/adviceset/:id/decisions/export': teamOnly({ ...teamRead, body: () => ({ format: 'json' }) }),
  'GET /api/adviceset/:ruleSetId/ai-user-request/:id': teamOnly(teamRead),
  'PATCH /api/adviceset/:ruleSetId/ai-user-request/:id': teamOnly(teamWrite),
  'DELETE /api/adviceset/:ruleSetId/ai-user-request/:id': teamOnly({ ...teamWrite, fresh: 'adviceRequest' }),
  'GET /api/google-analytics/getEvents': teamOnly(teamRead),
  'GET /api/supplements/:id/view': teamRead,
  'POST /api/supplements/upload': { ...teamWrite, upload: aChart, body: () => ({ name: aName() }) },
  'GET /api/supplements': teamRead,
  'POST /api/supplements': teamWrite,
  'GET /api/supplements/:id': teamRead,
  'PATCH /api/supplements/:id': teamWrite,
  'DELETE /api/supplements/:id': { ...teamWrite, fresh: 'media' },
  'POST /api/supplements/:id/restore': { ...teamWrite, fresh: 'media', deleted: true },
  'POST /api/supplements/:id/link': { ...teamWrite, body: (s) => ({ targetType: 'adviceSet', targetId: s.set }), expect: setOwnerTags }  /* linking writes the set with a supplement the asker reads */,
  'POST /api/supplements/:id/unlink': { ...teamWrite, fresh: 'media', prepare: (deps, actor, s) => linkSupplement(deps, actor, s.media, { targetType: 'adviceSet', targetId: s.set }), body: (s) => ({ targetType: 'adviceSet', targetId: s.set }), expect: setOwnerTags }  /* as link */,
}
