// Issue 22 finding 1: no redirect leaves the app's origin, whatever target a request names, and none fails with a 500.
// The routes whose Location takes request input (found by reading every `redirect(` and `location` header under
// src/http): sign-in's `?next=` (GET when signed in, POST on success), the activity log's Restore and the version
// actions (`next` in the form), the sign-in redirect of any page (the page's own URL as `next`), generated branches
// and compare (the form's values in the query), and the export page (the owner chosen). Each gets every payload of
// the table, signed in where it needs it, with a valid CSRF token on every POST.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent, signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser, type TestUser } from '../../helpers/factories.ts'
import { retirementSet } from '../../helpers/scenarios.ts'
import { activityRows } from '../../helpers/activity.ts'
import { OPEN_REDIRECT_PAYLOADS, offOriginProblem } from '../../helpers/open-redirects.ts'

const { app, database, config } = await buildTestApp(t)
const db = database.db
const ORIGIN = new URL(config.baseUrl).origin
const ownerId = await createOwner(db)
const admin = await createUser(db, { ownerId, role: 'admin' })
const adminAgent = await signedInAgent(app, admin)
const providerAdmin = await signedInAgent(app, await createUser(db, { ownerId: 'TF', role: 'admin' }))
const { set } = await retirementSet(db, ownerId)

// A restore that is refused every time (the variable is in use), so each attempt redirects and nothing changes.
const variable = (await adminAgent.api('POST', '/api/entity', { reservedName: 'Income', dataType: 'number', adviceSetId: set.id })).json().data
const usingRule = (await adminAgent.api('POST', '/api/rule', { adviceSetId: set.id, name: 'Uses income' })).json().data
await adminAgent.api('POST', `/api/rule/${usingRule.id}/node`, { type: 'advice', headline: 'You earn {{Income}}' })
const created = (await activityRows(db, 'entity', variable.id))[0]!
// A draft version whose submit is refused after the first, so each attempt redirects.
await adminAgent.postForm(`/adviceset/${set.id}/publish/create`, { notes: 'v1' }, { page: `/adviceset/${set.id}/publish/versions` })
const versionId = Number(/data-version-id="(\d+)"/.exec((await adminAgent.get(`/adviceset/${set.id}/publish/versions`)).body)![1])

/** Sign-in is limited to 10 attempts a minute per account: a fresh account for every few payloads. */
const signInAccounts: TestUser[] = []
async function signInAccount(i: number): Promise<TestUser> {
  const n = Math.floor(i / 8)
  signInAccounts[n] ??= await createUser(db, { ownerId, role: 'author' })
  return signInAccounts[n]!
}

interface Probe {
  route: string
  /** Statuses the route answers every payload with (a payload with NUL may also get 400 from the input guard). */
  expected: number[]
  send: (payload: string, i: number) => Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>
}

const q = encodeURIComponent
const probes: Probe[] = [
  { route: 'GET /login?next= (signed in)', expected: [302], send: (p) => adminAgent.get(`/login?next=${q(p)}`) },
  {
    route: 'POST /login?next= (sign-in)', expected: [303],
    send: async (p, i) => {
      const user = await signInAccount(i)
      return new Agent(app).postForm(`/login?next=${q(p)}`, { email: user.email, password: user.password }, { page: '/login' })
    },
  },
  { route: 'GET a page signed out (its URL becomes next)', expected: [302, 400], send: (p) => new Agent(app).get(`/library?q=${q(p)}`) },
  { route: 'POST /activity/:id/restore next=', expected: [303], send: (p) => adminAgent.postForm(`/activity/${created.id}/restore`, { next: p, confirm: 'remove' }) },
  {
    route: 'POST /adviceset/:id/publish/versions/:versionId/action next=', expected: [303],
    send: (p) => adminAgent.postForm(`/adviceset/${set.id}/publish/versions/${versionId}/action`, { action: 'submit', notes: '', next: p }),
  },
  {
    route: 'POST /adviceset/:id/advicescenario/gen-branches (values in the query)', expected: [303, 400],
    send: (p) => adminAgent.postForm(`/adviceset/${set.id}/advicescenario/gen-branches`, { source: 'draft', inputs: JSON.stringify({ Risk: p }), limit: '', runAsOf: '' }),
  },
  {
    route: 'POST /adviceset/:id/advicescenario/gen-branches/compare (values in the query)', expected: [303, 400],
    send: (p) => adminAgent.postForm(`/adviceset/${set.id}/advicescenario/gen-branches/compare`, { base: 'draft', next: p, limit: '', runAsOf: '' }),
  },
  { route: 'POST /admin/export ownerId=', expected: [303, 400, 404], send: (p) => providerAdmin.postForm('/admin/export', { kind: 'questions', format: 'csv', ownerId: p }) },
]

t.test(`${OPEN_REDIRECT_PAYLOADS.length} open-redirect payloads against every route that redirects to request input`, async (t) => {
  t.ok(OPEN_REDIRECT_PAYLOADS.length >= 40, 'at least 40 payloads')
  for (const probe of probes) {
    const problems: string[] = []
    let redirected = 0
    for (const [i, payload] of OPEN_REDIRECT_PAYLOADS.entries()) {
      const res = await probe.send(payload, i)
      const what = `${JSON.stringify(payload).slice(0, 60)} → ${res.statusCode}`
      const nulRefused = payload.includes('\u0000') && res.statusCode === 400
      if (!probe.expected.includes(res.statusCode) && !nulRefused) problems.push(`${what}: expected ${probe.expected.join(' or ')} ${res.body.slice(0, 120)}`)
      const location = res.headers.location
      if (typeof location !== 'string') continue
      redirected++
      const problem = offOriginProblem(location, ORIGIN)
      if (problem) problems.push(`${what}: Location ${problem}`)
    }
    t.same(problems, [], `${probe.route}: every Location stays on ${ORIGIN}, never a 500 (${redirected} redirects)`)
  }
})

t.test('a target on the app is kept, in its normalised form', async (t) => {
  const cases: Array<[string, string]> = [
    ['/library?q=a b#top', '/library?q=a%20b#top'],
    [`${ORIGIN}/profile`, '/profile'],
    ['/adviceset/1/../../profile', '/profile'],
    ['/%2F%2Fevil.example/x', '/%2F%2Fevil.example/x'],
  ]
  for (const [target, location] of cases) {
    const res = await adminAgent.get(`/login?next=${q(target)}`)
    t.equal(res.headers.location, location, `${target} → ${location}`)
  }
  const back = await adminAgent.postForm(`/activity/${created.id}/restore`, { next: `/adviceset/${set.id}/activity?page=2`, confirm: 'remove' })
  t.equal(back.headers.location, `/adviceset/${set.id}/activity?page=2`)
  const elsewhere = await adminAgent.postForm(`/adviceset/${set.id}/publish/versions/${versionId}/action`, { action: 'submit', next: '/profile' })
  t.equal(elsewhere.headers.location, `/adviceset/${set.id}/publish/versions`, 'a version action goes back only to the set\'s publishing pages')
  const lookalike = await adminAgent.postForm(`/adviceset/${set.id}/publish/versions/${versionId}/action`, { action: 'submit', next: `/adviceset/${set.id}/publisher` })
  t.equal(lookalike.headers.location, `/adviceset/${set.id}/publish/versions`, 'a path merely starting alike is not one of them')
})

t.test('the finding: a tab or a line break in second position, signed in', async (t) => {
  const tab = await adminAgent.get('/login?next=%2F%09%2Flocalhost%3A18081%2Fx')
  t.equal(tab.statusCode, 302)
  t.equal(tab.headers.location, '/', 'the tab form of //localhost:18081 is refused')
  const crlf = await adminAgent.get('/login?next=%2F%0D%0A%2Fx')
  t.equal(crlf.statusCode, 302, 'CR LF in next: a redirect, not a 500')
  t.equal(crlf.headers.location, '/')
})
