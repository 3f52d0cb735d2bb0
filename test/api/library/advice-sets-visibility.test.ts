// Issue 4 acceptance: the visibility matrix. Four people against own, provider, public, starter and private sets
// of the other owner, for list, show, edit, delete, copy and transfer — every cell asserted.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent } from '../../helpers/agent.ts'
import { createOwner, createUser, type TestUser } from '../../helpers/factories.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { retirementSet } from '../../helpers/scenarios.ts'
import { createVariable } from '../../helpers/rules.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const ownerA = await createOwner(db, { name: 'Owner A' })
const ownerB = await createOwner(db, { name: 'Owner B' })
const people: Record<string, TestUser> = {
  'provider admin': await createUser(db, { ownerId: 'TF', role: 'admin' }),
  'author of A': await createUser(db, { ownerId: ownerA, role: 'author' }),
  'viewer of A': await createUser(db, { ownerId: ownerA, role: 'viewer' }),
  'author of B': await createUser(db, { ownerId: ownerB, role: 'author' }),
}
const own: Record<string, string> = { 'provider admin': 'TF', 'author of A': ownerA, 'viewer of A': ownerA, 'author of B': ownerB }
const other: Record<string, string> = { 'provider admin': ownerA, 'author of A': ownerB, 'viewer of A': ownerB, 'author of B': ownerA }

type Kind = 'own' | 'provider' | 'public' | 'starter' | 'private'
const KINDS: Kind[] = ['own', 'provider', 'public', 'starter', 'private']

async function makeSet(person: string, kind: Kind, label: string) {
  const ownerId = kind === 'own' ? own[person]! : kind === 'provider' ? 'TF' : other[person]!
  return createAdviceSet(db, { ownerId, name: `${person} ${kind} ${label}`, isPublic: kind === 'public', isStarter: kind === 'starter' })
}

/** Expected status per operation: 2xx allowed, 403 seen but not allowed, 404 not visible. */
function expected(person: string, kind: Kind, op: 'show' | 'edit' | 'delete' | 'copy' | 'transfer'): number {
  const providerAdmin = person === 'provider admin'
  const viewer = person === 'viewer of A'
  const visible = providerAdmin || kind !== 'private'
  if (op === 'show') return visible ? 200 : 404
  if (op === 'copy') return viewer ? 403 : visible ? 201 : 404
  if (op === 'transfer') return providerAdmin ? 200 : 403
  const writable = providerAdmin || (kind === 'own' && !viewer)
  // The provider's own sets are "own" for the provider admin.
  if (!visible) return 404
  return writable ? 200 : 403
}

const agents = new Map<string, Agent>()
for (const [person, user] of Object.entries(people)) {
  const agent = new Agent(app)
  await agent.signIn(user.email, user.password)
  agents.set(person, agent)
}

for (const person of Object.keys(people)) {
  t.test(person, async (t) => {
    const agent = agents.get(person)!
    const sets = Object.fromEntries(await Promise.all(KINDS.map(async (k) => [k, await makeSet(person, k, 'listed')] as const)))

    t.test('list', async (t) => {
      const res = await agent.api('GET', `/api/adviceset/show?q=${encodeURIComponent(person)}&page=1`)
      t.equal(res.statusCode, 200)
      const ids = new Set(res.json().data.entries.map((e: { id: number }) => e.id))
      for (const kind of KINDS) {
        const shouldSee = person === 'provider admin' || kind !== 'private'
        t.equal(ids.has(sets[kind]!.id), shouldSee, `${kind} set ${shouldSee ? 'listed' : 'not listed'}`)
      }
      // The total is counted apart from the page (own and provider sets, then other teams' shared ones): it agrees.
      t.equal(res.json().data.total, ids.size, 'the total counts exactly the sets listed')
    })

    for (const kind of KINDS) {
      t.test(`${kind} set`, async (t) => {
        const show = await agent.api('GET', `/api/adviceset/${sets[kind]!.id}`)
        t.equal(show.statusCode, expected(person, kind, 'show'), 'show')
        if (show.statusCode === 404) t.notMatch(show.body, sets[kind]!.name, 'nothing of a hidden set leaks')

        const editTarget = await makeSet(person, kind, 'edit')
        const edit = await agent.api('PATCH', `/api/adviceset/${editTarget.id}`, { name: 'Edited name' })
        t.equal(edit.statusCode, expected(person, kind, 'edit'), 'edit')

        const deleteTarget = await makeSet(person, kind, 'delete')
        const del = await agent.api('DELETE', `/api/adviceset/${deleteTarget.id}`)
        t.equal(del.statusCode, expected(person, kind, 'delete'), 'delete')

        const copy = await agent.api('POST', '/api/adviceset/copy', { id: sets[kind]!.id })
        t.equal(copy.statusCode, expected(person, kind, 'copy'), 'copy')
        if (copy.statusCode === 201) t.equal(copy.json().data.ownerId, own[person], 'the copy belongs to the copier’s owner')

        const transferTarget = await makeSet(person, kind, 'transfer')
        const to = transferTarget.ownerId === ownerB ? ownerA : ownerB
        const transfer = await agent.api('POST', '/api/adviceset/transfer', { id: transferTarget.id, ownerId: to })
        t.equal(transfer.statusCode, expected(person, kind, 'transfer'), 'transfer')
        if (transfer.statusCode === 200) t.equal(transfer.json().data.ownerId, to)
      })
    }
  })
}

t.test("a public set's visitors see the dictionary entries it names, not the rest of its owner's dictionary", async (t) => {
  const { set } = await retirementSet(db, ownerB, { name: 'B public retirement', isPublic: true })
  await createVariable(db, ownerB, 'B_private_note')
  const visitor = new Agent(app)
  await visitor.signIn(people['author of A']!.email, people['author of A']!.password)
  const member = new Agent(app)
  await member.signIn(people['author of B']!.email, people['author of B']!.password)
  for (const url of [`/api/adviceset/logic-cache?id=${set.id}`, `/api/entity/typeahead?adviceSetId=${set.id}`, `/api/entity/text-search?adviceSetId=${set.id}`]) {
    const seen = await visitor.api('GET', url)
    t.equal(seen.statusCode, 200, url)
    t.match(seen.body, '"Age"', `the visitor sees the entries the set uses: ${url}`)
    t.notMatch(seen.body, 'B_private_note', `but not the owner's others: ${url}`)
    t.match((await member.api('GET', url)).body, 'B_private_note', `the owner's team sees its whole dictionary: ${url}`)
  }
})
