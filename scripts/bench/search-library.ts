// The search bench's library and workload (issue 6): 100,000 deterministic documents — Zipf-distributed words,
// 200 owners, a fifth public, one in twenty starters — and type-ahead queries typed from real names, each run
// through the search service (pending-task check, visibility, the query, highlighting) in three scenarios.
import { sql } from 'drizzle-orm'
import type { Database } from '../../src/db/client.ts'
import { insertOwner } from '../../src/db/queries/users.ts'
import { ENTITY_TYPE_LIST } from '../../src/engine/entity-types.ts'
import type { Deps } from '../../src/services/context.ts'
import { searchLibrary, searchRuntime } from '../../src/services/search.ts'
import type { SearchDocument } from '../../src/search/types.ts'

export const DOCUMENTS = 100_000
export const OWNERS = 200
export const QUERIES = 300
export const WARMUP = 30

/** Deterministic, so every run and both databases see the same library and the same queries. */
function random(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let x = Math.imul(s ^ (s >>> 15), 1 | s)
    x ^= x + Math.imul(x ^ (x >>> 7), 61 | x)
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

const DOMAIN = (`pension retirement mortgage savings income tax allowance benefit insurance annuity investment portfolio
  risk equity bond fund property rental landlord tenant inheritance estate trust gift child care tuition student loan
  debt credit card budget expense household family partner divorce health disability employment salary bonus dividend
  capital gains interest rate inflation deposit account isa lifetime junior premium policy claim cover protection
  critical illness income protection payment schedule deadline return assessment refund eligibility threshold limit
  contribution employer employee workplace state private personal advice rule question answer variable formula`).split(/\s+/)
const SYLLABLES = 'ka lo mi ra te su vo ne pa di qu ber tan sol mar ven cor lin dus fen gar hol'.split(' ')

function vocabulary(next: () => number): string[] {
  const words = new Set(DOMAIN)
  while (words.size < 6000) {
    const n = 2 + Math.floor(next() * 3)
    words.add(Array.from({ length: n }, () => SYLLABLES[Math.floor(next() * SYLLABLES.length)]).join(''))
  }
  return [...words]
}

/** Zipf-like: common words are much more common than rare ones, as in real titles. */
function pick(words: string[], next: () => number): string {
  return words[Math.floor(words.length * next() ** 3)]!
}

function phrase(words: string[], next: () => number, min: number, max: number): string {
  const n = min + Math.floor(next() * (max - min + 1))
  return Array.from({ length: n }, () => pick(words, next)).join(' ')
}

export function documents(): { docs: SearchDocument[]; words: string[] } {
  const next = random(42)
  const words = vocabulary(next)
  const types = ENTITY_TYPE_LIST
  const docs: SearchDocument[] = []
  const now = Date.now()
  for (let i = 0; i < DOCUMENTS; i++) {
    const type = i % 10 === 0 ? types.find((t) => t.key === 'adviceSet')! : types[Math.floor(next() * types.length)]!
    const setId = Math.floor(i / 10) + 1
    const ownerIndex = Math.floor(next() * OWNERS)
    const ownerId = ownerIndex === 0 ? 'TF' : `owner${ownerIndex}`
    const name = phrase(words, next, 2, 6)
    const setName = phrase(words, next, 2, 5)
    docs.push({
      objectID: `${type.key}-${i}`, entityType: { id: type.id, displayName: type.displayName }, ownerId, ownerName: `Owner ${ownerIndex}`,
      name, name_alt: next() < 0.3 ? phrase(words, next, 2, 5) : name, uri: `/x/${i}`, nodeId: null, rule: null,
      adviceset: { id: setId, name: setName, name_alt: setName, isPublic: next() < 0.2, isStarter: next() < 0.05 },
      tags: next() < 0.3 ? [pick(['Needs Work', 'Pensions', 'Tax', 'Family', 'Example'], next)] : [],
      text: phrase(words, next, 10, 30), updatedAt: new Date(now - i * 1000),
    })
  }
  return { docs, words }
}

/** 1–3 consecutive words of a real name, the last cut to a prefix; one in eight with one typo in a long word. */
export function queries(docs: SearchDocument[]): string[] {
  const next = random(7)
  return Array.from({ length: QUERIES + WARMUP }, () => {
    const name = docs[Math.floor(next() * docs.length)]!.name.split(' ')
    const count = 1 + Math.floor(next() * Math.min(3, name.length))
    const start = Math.floor(next() * (name.length - count + 1))
    const picked = name.slice(start, start + count)
    const last = picked.at(-1)!
    picked[picked.length - 1] = last.slice(0, 1 + Math.floor(next() * last.length))
    if (next() < 0.125) {
      const i = picked.findIndex((w) => w.length >= 5)
      if (i >= 0) picked[i] = picked[i]!.slice(0, 2) + picked[i]![3] + picked[i]![2] + picked[i]!.slice(4)
    }
    return picked.join(' ')
  })
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

export interface Row { database: string; load: string; queries: number; p50: number; p95: number; p99: number; max: number; meanHits: number; slowest: string }

/** How many of a scenario's slowest queries are reported: the ones to look at (EXPLAIN ANALYZE) when p95 moves. */
const SLOWEST = 5

export const SCENARIOS = [
  ['type-ahead, filter all', { searchFilter: 'all' }],
  ['type-ahead, filter starters', { searchFilter: 'starters' }],
  ['screener (+5 facets), filter all', { searchFilter: 'all', facets: ['entityType.displayName', 'ownerName', 'tags', 'adviceset.isPublic', 'adviceset.isStarter'] }],
] as const

/**
 * The owners and documents, loaded through the index as the indexer would, then vacuumed and analyzed as autovacuum
 * does after a bulk load: the queries measure the library in its steady state, not racing that first vacuum (and
 * setting every row's hint bits on first read).
 */
export async function loadLibrary(database: Database, deps: Deps, docs: SearchDocument[], label: string): Promise<void> {
  const db = database.db
  for (let i = 1; i < OWNERS; i++) await insertOwner(db, { id: `owner${i}`, name: `Owner ${i}` })
  const { index } = searchRuntime(deps)
  for (let i = 0; i < docs.length; i += 2000) {
    await index.upsert(docs.slice(i, i + 2000))
    process.stdout.write(`\r  ${label}: loading ${Math.min(docs.length, i + 2000).toLocaleString('en')} / ${docs.length.toLocaleString('en')} documents`)
  }
  process.stdout.write('\n')
  await db.execute(sql`VACUUM ANALYZE`)
}

/** Every scenario over the typed queries, as one author of an ordinary owner; times after the warm-up. */
export async function runScenarios(deps: Deps, label: string, typed: string[]): Promise<Row[]> {
  const rows: Row[] = []
  const user = { userId: 1, ownerId: 'owner7', role: 'author' as const, impersonatorId: null }
  for (const [scenario, params] of SCENARIOS) {
    const times: number[] = []
    const timed: Array<{ query: string; ms: number; hits: number }> = []
    let hits = 0
    for (const [i, query] of typed.entries()) {
      const t0 = performance.now()
      const { results } = await searchLibrary(deps, user, [{ indexName: 'advice_updatedAt', params: { query, ...params } }])
      const ms = performance.now() - t0
      if (i >= WARMUP) { times.push(ms); hits += results[0]!.nbHits; timed.push({ query, ms, hits: results[0]!.nbHits }) }
    }
    times.sort((a, b) => a - b)
    const slowest = timed.sort((a, b) => b.ms - a.ms).slice(0, SLOWEST).map((t) => `${JSON.stringify(t.query)} ${t.ms.toFixed(1)} ms (${t.hits} hits)`).join(', ')
    rows.push({ database: label, load: scenario, queries: times.length, p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99), max: times.at(-1)!, meanHits: Math.round(hits / times.length), slowest })
  }
  return rows
}

export function printTable(rows: Row[]): void {
  const ms = (n: number) => `${n.toFixed(1)} ms`
  console.log('\n| database | queries | n | p50 | p95 | p99 | max | mean nbHits |\n|---|---|---|---|---|---|---|---|')
  for (const r of rows) console.log(`| ${r.database} | ${r.load} | ${r.queries} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${ms(r.max)} | ${r.meanHits} |`)
  console.log('\nslowest queries:')
  for (const r of rows) console.log(`  ${r.database}, ${r.load}: ${r.slowest}`)
}
