// Every registered page route renders a page whose <main> starts with the SPEC page marker (DESIGN page-name table).
import t, { type Test } from 'tap'
import { assertPageSecurityHeaders } from '../../helpers/security-headers.ts'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../../src/services/library/advice-sets.ts'
import { buildRule, createVariable } from '../../helpers/rules.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { publishVersion } from '../../helpers/publishing.ts'
import { createExternalApiDefinition } from '../../helpers/external-apis.ts'
import { createScenario } from '../../../src/services/scenarios/scenarios.ts'
import { createTag } from '../../../src/services/library/tags.ts'
import { createKeywordMap } from '../../../src/services/library/keyword-maps.ts'
import { tags } from '../../../src/db/schema/index.ts'
import { Readable } from 'node:stream'
import { decisionIdAt } from '../../../src/services/decisions/decision-id.ts'
import { insertDecisionRecords } from '../../../src/db/queries/decisions.ts'
import { createLinkSupplement } from '../../../src/services/files/supplements.ts'
import { uploadSupplement } from '../../../src/services/files/uploads.ts'

/** Route → expected data-page, per DESIGN.md "Page names"; pages the SPEC leaves unnamed use area-action names. */
const EXPECTED: Record<string, string> = {
  '/': 'index',
  '/login': 'sign-in',
  '/signup': 'sign-up',
  '/logout': 'auth-logout',
  '/password/forgot': 'password-reset',
  '/password/reset/:token': 'password-reset',
  '/password/setup/:token': 'password-reset',
  '/password/edit': 'password-reset',
  '/profile': 'user-page',
  '/profile/edit': 'user-page',
  '/profile/password': 'user-page',
  '/user/new': 'user-page',
  '/user/team': 'user-page',
  '/admin/users': 'admin-users',
  '/admin/users/new': 'admin-users-new',
  '/admin/support': 'support',
  '/admin/support/impersonate': 'support',
  '/admin/decisions/subject': 'admin-decisions-subject',
  '/admin/export': 'admin-export',
  '/admin/tag': 'tag',
  '/admin/tag/:id/edit': 'tag',
  '/admin/tag/:id/confirm-merge': 'tag',
  '/admin/tag/:id/confirm-delete': 'tag',
  '/library': 'rule-set-index',
  '/library/classic': 'rule-set-index',
  '/library/search': 'screener',
  '/library/bulkeditor': 'bulk-editor',
  '/explore': 'explore',
  '/adviceset/new': 'rule-set-form',
  '/adviceset/import': 'import',
  '/adviceset/:id/show': 'rule-set-show',
  '/adviceset/:id/edit': 'rule-set-form',
  '/adviceset/:id/activity': 'rule-set-activity',
  '/adviceset/:id/decisions': 'decisions',
  '/adviceset/:id/decisions/:decisionId': 'decision',
  '/adviceset/:id/embed': 'rule-set-embed',
  '/adviceset/:id/publish': 'rule-set-publish-index',
  '/adviceset/:id/publish/versions': 'rule-set-publish-index',
  '/adviceset/:id/publish/versions/:versionId': 'publish-version-show',
  '/adviceset/:id/publish/assign': 'publish-assign',
  '/activity': 'rule-set-activity',
  '/adviceset/:id/confirm-delete': 'rule-set-delete',
  '/adviceset/:id/rule/new': 'rule-new',
  '/adviceset/:id/rule/:ruleId/show': 'rule-show',
  '/adviceset/:id/rule/:ruleId/part/:nodeId': 'rule-show',
  '/adviceset/:id/rule/confirm-delete': 'rule-delete',
  '/adviceset/:id/rule/debug': 'rule-debug',
  '/admin/dictionary': 'entity-page',
  '/admin/dictionary/list': 'entity-page',
  '/card/:type': 'entity-page',
  '/card/:type/:entityId': 'entity-page',
  '/card/:type/:entityId/edit': 'entity-page',
  '/admin/apikey': 'api-keys',
  '/admin/apikey/new': 'api-keys',
  '/admin/apikey/:keyId/edit': 'api-keys',
  '/admin/apikey/:keyId/copy': 'api-keys',
  '/admin/apikey/:keyId/usage': 'api-keys-usage',
  '/api-manager': 'external-api-form',
  '/api-manager/new': 'external-api-form',
  '/api-manager/:id/edit': 'external-api-form',
  '/adviceset/:id/advicescenario/index': 'advice-scenario-index',
  '/adviceset/:id/advicescenario/new': 'advice-scenario-index',
  '/adviceset/:id/advicescenario/:scenarioId/show': 'advice-scenario-index',
  '/adviceset/:id/advicescenario/:scenarioId/edit': 'advice-scenario-index',
  '/adviceset/:id/advicescenario/:scenarioId/copy': 'advice-scenario-index',
  '/adviceset/:id/advicescenario/:scenarioId/delete': 'advice-scenario-index',
  '/adviceset/:id/advicescenario/tree': 'tree-builder',
  '/admin/keywordMap': 'keyword-map',
  '/admin/keywordMap/:keywordMapId': 'keyword-map',
  '/adviceset/:ruleSetId/advicescenario/gen-branches': 'generate-branches',
  '/adviceset/:ruleSetId/advicescenario/gen-branches/:id': 'generate-branches',
  '/adviceset/:ruleSetId/advicescenario/gen-branches/compare': 'generate-branches',
  '/adviceset/:ruleSetId/advicescenario/gen-summary': 'generate-summary',
  '/media': 'media-index',
  '/media/new': 'media-index',
  '/media/:id/show': 'media-index',
  '/media/:id/edit': 'media-index',
  '/visualizations': 'media-index',
  '/visualizations/new': 'media-index',
  '/visualizations/:id/show': 'media-index',
  '/visualizations/:id/edit': 'media-index',
}
/** Sub-views served to islands (SPEC §2 "sub-views"): no layout and no <main>; their root names them instead. */
const FRAGMENTS: Record<string, string> = {
  '/adviceset/:id/show/header': 'ruleset-show-header',
  '/adviceset/:id/show/sidebar': 'ruleset-show-sidebar',
  '/adviceset/:id/show/modal/details': 'ruleset-show-details',
  '/adviceset/:id/rule/:ruleId/show/header': 'rule-show-header',
  '/adviceset/:id/rule/:ruleId/show/tree': 'rule-show-tree',
  '/adviceset/:id/rule/selector': 'rule-selector',
  '/adviceset/:id/rule/copyselector': 'rule-copyselector',
  '/adviceset/:id/rule/apiselector': 'rule-apiselector',
  '/adviceset/:id/rule/debug/tree': 'rule-debug-tree',
  '/adviceset/:id/publish/versions/:versionId/coverage': 'version-coverage',
}
/** C0 control characters other than tab, LF and CR, with what surrounds them: no page may send any. */
function controlCharacters(body: string): string[] {
  return [...body.matchAll(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g)]
    .map((m) => `U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} in …${JSON.stringify(body.slice(Math.max(0, m.index - 40), m.index + 40))}…`)
}

/** The page's breadcrumb trail, if it has one, ends at the page itself (never in a dangling "›") and repeats no step. */
function assertCrumbsEnd(t: Test, body: string): void {
  const crumbs = /<p class="crumbs">([\s\S]*?)<\/p>/.exec(body)?.[1]
  if (crumbs === undefined) return
  t.notMatch(crumbs, /›\s*$/, 'the breadcrumbs do not end in ›')
  t.match(crumbs, /<span aria-current="page">.+<\/span>$/, 'the breadcrumbs end with the page itself')
  const steps = [...crumbs.matchAll(/href="([^"]+)"/g)].map((m) => m[1])
  t.equal(new Set(steps).size, steps.length, 'no step of the trail twice')
}

/** Routes that only redirect (to a page that is itself checked). */
const REDIRECTS = new Set(['/password/reset', '/password/setup'])
/**
 * Not pages: uploaded content itself, served for a frame (SPEC §2 …/iframe, checked in test/api/files), and the
 * advice-set@1 JSON Schema (checked in test/api/library/advice-set-files.test.ts).
 */
const RAW_CONTENT = new Set(['/media/:id/iframe', '/visualizations/:id/iframe', '/schemas/advice-set-1.json'])
/** Pages that need no sign-in and render for visitors (sign-in pages redirect signed-in users away). */
const VISITOR_PAGES = new Set(['/login', '/signup'])

const pageRoutes: string[] = []
const { app, database, config } = await buildTestApp(t, {}, {
  onRoute: (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (methods.includes('GET') && !route.url.startsWith('/api') && !route.url.startsWith('/static') && route.url !== '*' && route.url !== '/*') {
      pageRoutes.push(route.url)
    }
  },
})

const provider = await createOwner(database.db, { id: 'TF', name: 'Advice Studio' })
const admin = await createUser(database.db, { ownerId: provider, role: 'admin' })
const signedIn = new Agent(app)
await signedIn.signIn(admin.email, admin.password)
const adviceSet = await createAdviceSet(app.deps, { userId: admin.id, ownerId: provider, role: 'admin', impersonatorId: null }, { name: 'Marker set' })
const markerVariable = await createVariable(database.db, provider, 'Marker_Variable')
// A question first: the marker scenario (no answers) stops at it, so the tree builder draws an open answer.
const { rule: markerRule, nodes: [markerNode] } = await buildRule(database.db, adviceSet.id, 'Marker rule', [
  { type: 'inputRequest', variable: 'Marker_Variable', question: 'Marker question?' }, { type: 'ruleExit' },
])
const { key: markerKey } = await createApiKey(database.db, { ownerId: provider })
const markerVersion = await publishVersion(database.db, { adviceSetId: adviceSet.id })
// A decision record of the marker set, for the record page.
const markerDecisionAt = new Date()
const markerDecision = decisionIdAt(markerDecisionAt.getTime())
await insertDecisionRecords(database.db, [{
  id: markerDecision, receivedAt: markerDecisionAt, ownerId: provider, adviceSetId: adviceSet.id, versionId: markerVersion.id, versionNumber: markerVersion.number,
  apiKeyId: markerKey.id, environment: 'production', endpoint: 'api', contentType: 'text', inputs: {}, status: 'question',
  outcome: { items: [], errors: [], question: { nodeId: String(markerNode!.id), variable: 'Marker_Variable', path: [] } }, engineMicros: 10,
}])
const markerApi = await createExternalApiDefinition(database.db, config.secretKey, { ownerId: provider, urlTemplate: 'https://api.example/rates' })
const markerScenario = await createScenario(app.deps, { userId: admin.id, ownerId: provider, role: 'admin', impersonatorId: null }, { adviceSetId: adviceSet.id, name: 'Marker scenario' })
const markerMap = await createKeywordMap(app.deps, { userId: admin.id, ownerId: provider, role: 'admin', impersonatorId: null }, { name: 'Marker map', phrases: ['marker'], adviceSetId: adviceSet.id })
const markerAuthor = await createUser(database.db, { ownerId: provider, role: 'author' })
const [markerTag] = await database.db.select({ id: tags.id }).from(tags).limit(1)
// The tag confirmation pages need a tag of the admin's own that may go, and another to merge it into.
const providerActor = { userId: admin.id, ownerId: provider, role: 'admin' as const, impersonatorId: null }
const doomedTag = await createTag(app.deps, providerActor, { label: 'Marker doomed' })
const keeperTag = await createTag(app.deps, providerActor, { label: 'Marker keeper' })
const adminActor = { userId: admin.id, ownerId: provider, role: 'admin' as const, impersonatorId: null }
const markerMedia = await createLinkSupplement(app.deps, adminActor, { url: 'https://example.com/guide', name: 'Marker link' })
const markerViz = await uploadSupplement(app.deps, adminActor, (async function* () {
  yield { kind: 'file' as const, field: 'file', filename: 'chart.html', stream: Readable.from([Buffer.from('<!doctype html><p>Chart</p>')]) }
})())
/** Pages that name their rule in the query string. */
const QUERIES: Record<string, string> = {
  '/adviceset/:id/rule/confirm-delete': `?ruleId=${markerRule.id}`,
  '/adviceset/:id/rule/copyselector': `?ruleId=${markerRule.id}`,
  '/admin/support/impersonate': `?userId=${markerAuthor.id}`,
  '/admin/tag/:id/confirm-merge': `?into=${keeperTag.id}`,
}
const concrete = (url: string) => url.replace('/api-manager/:id', `/api-manager/${markerApi.id}`).replace('/gen-branches/:id', `/gen-branches/${markerScenario.id}`)
  .replace(':token', 'not-a-real-token').replace(':ruleSetId', String(adviceSet.id))
  .replace(/^\/media\/:id/, `/media/${markerMedia.id}`).replace(/^\/visualizations\/:id/, `/visualizations/${markerViz.id}`)
  .replace(':id', String(url.startsWith('/admin/tag/') ? (url.includes('/confirm-') ? doomedTag.id : markerTag!.id) : adviceSet.id))
  .replace(':ruleId', String(markerRule.id)).replace(':nodeId', String(markerNode!.id))
  .replace(':type', 'variable').replace(':entityId', String(markerVariable.id)).replace(':keyId', String(markerKey.id)).replace(':versionId', String(markerVersion.id))
  .replace(':scenarioId', String(markerScenario.id)).replace(':decisionId', markerDecision).replace(':keywordMapId', String(markerMap.id)) + (QUERIES[url] ?? '')

t.test('every page route is in the expected table', async (t) => {
  for (const url of pageRoutes) {
    t.ok(url in EXPECTED || url in FRAGMENTS || REDIRECTS.has(url) || RAW_CONTENT.has(url), `${url} has an expected page name`)
  }
})

for (const url of [...new Set(pageRoutes)].filter((u) => !REDIRECTS.has(u) && !(u in FRAGMENTS) && !RAW_CONTENT.has(u))) {
  t.test(`${url} starts its <main> with data-page="${EXPECTED[url]}"`, async (t) => {
    const agent = VISITOR_PAGES.has(url) ? new Agent(app) : signedIn
    const res = await agent.get(concrete(url))
    t.ok(res.statusCode === 200 || res.statusCode === 410, `renders (status ${res.statusCode})`)
    t.match(res.headers['content-type'], /text\/html/)
    const main = /<main\b[^>]*>/.exec(res.body)?.[0]
    t.equal(main, `<main data-page="${EXPECTED[url]}">`, 'the first <main> is the page marker')
    t.equal((res.body.match(/<main\b/g) ?? []).length, 1, 'exactly one <main>')
    t.same(controlCharacters(res.body), [], 'no C0 control characters')
    assertCrumbsEnd(t, res.body)
    t.equal(res.headers['cache-control'], 'no-store', 'never stored: Back loads it again')
    // The embed's own page (its snippet) is shown in the app, so only the app frames it, like every other page.
    assertPageSecurityHeaders(t, res.headers, { frameGuard: url !== '/adviceset/:id/embed' })
  })
}

for (const url of [...new Set(pageRoutes)].filter((u) => u in FRAGMENTS)) {
  t.test(`${url} is a fragment whose root is data-fragment="${FRAGMENTS[url]}"`, async (t) => {
    const res = await signedIn.get(concrete(url))
    t.equal(res.statusCode, 200)
    t.match(res.headers['content-type'], /text\/html/)
    t.match(res.body, new RegExp(`^\\s*<section [^>]*data-fragment="${FRAGMENTS[url]}"`), 'the first element names the fragment')
    t.notMatch(res.body, /<main\b|<html\b/, 'no page around it')
    t.same(controlCharacters(res.body), [], 'no C0 control characters')
    t.equal(res.headers['cache-control'], 'no-store', 'never stored')
    assertPageSecurityHeaders(t, res.headers)
  })
}
