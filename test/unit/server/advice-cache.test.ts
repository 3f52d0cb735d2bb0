// AdviceCache: one lookup per (set, environment, audience) until versions announce a change or the entry ages (then
// refreshed behind the stale answer); failed lookups not kept; compiled versions by id, least recently used dropped.
import t from 'tap'
import { AdviceCache } from '../../../src/services/delivery/cache.ts'
import { versionChanged } from '../../../src/services/publishing/events.ts'
import type { KeyAudience, ServedVersion } from '../../../src/services/publishing/versions.ts'
import type { AdviceSetModel } from '../../../src/engine/index.ts'

const production: KeyAudience = { environment: 'production', audienceId: null }
const preview: KeyAudience = { environment: 'preview', audienceId: null }

function version(id: number, adviceSetId = 1, headline = `Version ${id}`): ServedVersion {
  const model: AdviceSetModel = { id: String(adviceSetId), name: 'Set', entities: [], rules: [{ id: 'r', name: 'R', adviceSetId: String(adviceSetId), nodes: [{ id: 'n', type: 'advice', headline, children: [] }] }] }
  return { id, number: id, adviceSetId, ownerId: 'o1', isPublic: false, snapshot: { adviceSet: { id: adviceSetId, name: 'Set', nameAlt: '', description: '' }, model } }
}

/** A lookup that answers from `current` and counts its calls; `pending` holds answers not released yet. */
function fakeLookup() {
  const calls: Array<[number, KeyAudience]> = []
  const current = new Map<number, ServedVersion | undefined>()
  let failNext = false
  const lookUp = async (adviceSetId: number, who: KeyAudience) => {
    calls.push([adviceSetId, who])
    if (failNext) { failNext = false; throw new Error('database down') }
    return current.get(adviceSetId)
  }
  return { calls, current, lookUp, failOnce: () => { failNext = true } }
}

t.test('one lookup per set and audience until a version change is announced for that set', async (t) => {
  const db = fakeLookup()
  const cache = new AdviceCache(db.lookUp)
  t.teardown(() => cache.close())
  db.current.set(1, version(10))
  db.current.set(2, version(20, 2))
  const [a, b] = await Promise.all([cache.servedVersion(1, production), cache.servedVersion(1, production)])
  t.equal(a?.id, 10)
  t.equal(b, a, 'concurrent first requests share the lookup')
  await cache.servedVersion(1, preview)
  await cache.servedVersion(2, production)
  t.equal(db.calls.length, 3, 'one per set and audience')
  await cache.servedVersion(1, production)
  t.equal(db.calls.length, 3, 'answered from memory')

  db.current.set(1, version(11))
  versionChanged(1)
  t.equal((await cache.servedVersion(1, production))?.id, 11, 'the change is seen at once')
  t.equal(db.calls.length, 4)
  await cache.servedVersion(2, production)
  t.equal(db.calls.length, 4, 'other sets stay cached')

  db.current.delete(1)
  versionChanged(1)
  t.equal(await cache.servedVersion(1, production), undefined, 'unpublished: nothing served')
  await cache.servedVersion(1, production)
  t.equal(db.calls.length, 5, '"nothing served" is remembered too')
})

t.test('an aged entry keeps answering while one refresh runs, then the refreshed answer is used', async (t) => {
  const db = fakeLookup()
  let now = 1_000
  const cache = new AdviceCache(db.lookUp, { now: () => now, servedTtlMs: 100 })
  t.teardown(() => cache.close())
  db.current.set(1, version(10))
  await cache.servedVersion(1, production)
  db.current.set(1, version(12))
  now += 150
  const stale = cache.servedVersion(1, production)
  cache.servedVersion(1, production)
  t.equal((await stale)?.id, 10, 'the aged answer, without waiting')
  t.equal(db.calls.length, 2, 'one refresh for all the requests that found it aged')
  await new Promise((resolve) => setImmediate(resolve))
  t.equal((await cache.servedVersion(1, production))?.id, 12, 'then the refreshed answer')
  t.equal(db.calls.length, 2)
})

t.test('a failed lookup is not kept: the next request asks again', async (t) => {
  const db = fakeLookup()
  const cache = new AdviceCache(db.lookUp)
  t.teardown(() => cache.close())
  db.current.set(1, version(10))
  db.failOnce()
  await t.rejects(cache.servedVersion(1, production), /database down/)
  t.equal((await cache.servedVersion(1, production))?.id, 10)
  t.equal(db.calls.length, 2)
  t.same(cache.size, { served: 1, compiled: 0 })
})

t.test('compiled versions are kept by version id, least recently used dropped past the limit', async (t) => {
  const cache = new AdviceCache(fakeLookup().lookUp, { compiledLimit: 2 })
  t.teardown(() => cache.close())
  const [v1, v2, v3] = [version(1), version(2), version(3)]
  const first = cache.compiled(v1)
  t.equal(first.rules[0]!.nodes[0]!.model.headline, 'Version 1')
  t.equal(cache.compiled(v1), first, 'the same compiled set again')
  cache.compiled(v2)
  cache.compiled(v1)
  cache.compiled(v3)
  t.equal(cache.size.compiled, 2)
  t.equal(cache.compiled(v1), first, 'recently used: kept')
  t.not(cache.compiled(v2), undefined)
  t.equal(cache.size.compiled, 2, 'version 2 was compiled again in place of version 3')
})

t.test('after close the cache hears no more changes', async (t) => {
  const db = fakeLookup()
  const cache = new AdviceCache(db.lookUp)
  db.current.set(1, version(10))
  await cache.servedVersion(1, production)
  cache.close()
  versionChanged(1)
  t.same(cache.size, { served: 0, compiled: 0 })
})
