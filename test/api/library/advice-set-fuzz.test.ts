// Issue 28, "Hostile files": valid exported documents (a set with every node type, and the ZIP form with a supplement
// file), mutated by fast-check — keys dropped, values of the wrong type, nesting to and past 64, prototype keys,
// dangling references, duplicate keys, huge strings, invalid expressions, unicode edge cases, truncated text, ZIPs
// with bad entries — and uploaded to POST /api/adviceset/import (as a new set, or into one). The answer is 201 or 4xx,
// never 500; a 4xx leaves every table and the file store as they were; a 201's set exports as a valid document.
import t from 'tap'
import fc from 'fast-check'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { count } from 'drizzle-orm'
import { Compile } from 'typebox/compile'
import { buildTestApp } from '../../helpers/app.ts'
import { keywordMapTeams } from '../../helpers/keyword-maps.ts'
import { genSet, storeGenSet } from '../../helpers/portable-sets.ts'
import { multipartBody, pngOf, upload, type UploadFile } from '../../helpers/uploads.ts'
import type { Agent } from '../../helpers/agent.ts'
import { AdviceSetDocument } from '../../../src/services/library/portable-format.ts'
import {
  activity, adviceScenarios, adviceSets, entities, externalApis, keywordMaps, ruleNodes, rules, supplements,
} from '../../../src/db/schema/index.ts'

const { app, database, config } = await buildTestApp(t)
const db = database.db
const { admin, author, acme, set } = await keywordMapTeams(app, db)
const validator = Compile(AdviceSetDocument)

// The documents to mutate: the retirement set with a supplement file (JSON and ZIP), and a generated set.
const png = await pngOf(4, 3)
if ((await upload(author, { filename: 'chart.png', data: png, type: 'image/png' }, { targetType: 'adviceSet', targetId: String(set.id) })).statusCode !== 201) throw new Error('no upload')
const [gen] = fc.sample(genSet.filter((g) => g.scenarios.length > 0), { numRuns: 1, seed: 2828 })
const generated = await storeGenSet(db, config.secretKey, acme, gen!)
const exportOf = async (id: number, format = 'json') => (await admin.api('GET', `/api/adviceset/${id}/export?format=${format}`)).rawPayload
const bases = [(await exportOf(set.id)).toString('utf8'), (await exportOf(generated.set.id)).toString('utf8')]
const zipBase = await exportOf(set.id, 'zip')
for (const text of bases) if (!validator.Check(JSON.parse(text))) throw new Error('an exported document is not valid')

const TABLES = { adviceSets, rules, ruleNodes, entities, adviceScenarios, externalApis, supplements, keywordMaps, activity }
async function rowCounts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {}
  for (const [name, table] of Object.entries(TABLES)) out[name] = (await db.select({ n: count() }).from(table))[0]!.n
  return out
}

function storedFiles(dir = path.join(config.dataDir, 'files')): string[] {
  let names: string[] = []
  try { names = readdirSync(dir, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? storedFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]) } catch { return [] }
  return names.sort()
}

async function importBytes(agent: Agent, file: UploadFile, query: string): Promise<{ statusCode: number; body: any }> {
  if (!agent.csrfToken) await agent.get('/')
  const { payload, contentType } = await multipartBody(file)
  const res = await agent.request({ method: 'POST', url: `/api/adviceset/import${query}`, payload, headers: { 'accept': 'application/json', 'content-type': contentType, 'x-csrf-token': agent.csrfToken } })
  return { statusCode: res.statusCode, body: res.body ? JSON.parse(res.body) : null }
}

// Mutations ------------------------------------------------------------------------------------------------------------

type Json = any
type Path = Array<string | number>

/** Every place in the document (objects' keys and arrays' items), depth first. */
function placesOf(value: Json, at: Path = [], out: Path[] = []): Path[] {
  if (value !== null && typeof value === 'object') {
    for (const key of Array.isArray(value) ? value.keys() : Object.keys(value)) {
      out.push([...at, key])
      placesOf(value[key], [...at, key], out)
    }
  }
  return out
}
const parentOf = (doc: Json, p: Path) => p.slice(0, -1).reduce((v, k) => v[k], doc)
const pick = <T = Json>(list: T[], n: number): T | undefined => list.length === 0 ? undefined : list[n % list.length]
/** The nodes of the document, depth first; an earlier mutation may have put anything where a list or a node was. */
function nodesOf(doc: Json): Json[] {
  const out: Json[] = []
  const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)
  const listOf = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : [])
  const walk = (nodes: Json[]) => { for (const n of nodes) { out.push(n); walk(listOf(n.children)) } }
  for (const r of listOf(doc.rules)) walk(listOf(r.nodes))
  return out
}

/** A change of the parsed document. */
type DocMutation = (doc: Json, n: number) => void
const setAt = (doc: Json, n: number, value: unknown) => { const p = pick(placesOf(doc), n); if (p) parentOf(doc, p)[p.at(-1)!] = value }
const nest = (depth: number, inner: unknown) => Array.from({ length: depth }).reduce<unknown>((v, _x, i) => (i % 2 ? [v] : { deep: v }), inner)

const docMutation: fc.Arbitrary<{ label: string; apply: DocMutation }> = fc.oneof(
  fc.constant({ label: 'drop a key', apply: ((doc, n) => { const p = pick(placesOf(doc).filter((q) => typeof q.at(-1) === 'string'), n); if (p) delete parentOf(doc, p)[p.at(-1)!] }) as DocMutation }),
  fc.constantFrom<unknown>(1, -1, 1.5, 'x', '', null, [], {}, true, 1e308, [null], { a: 1 }).map((value) => ({ label: `a ${JSON.stringify(value)} somewhere`, apply: ((doc, n) => setAt(doc, n, value)) as DocMutation })),
  fc.integer({ min: 55, max: 80 }).map((depth) => ({ label: `nesting ${depth} deep`, apply: ((doc, n) => setAt(doc, n, nest(depth, 'deep'))) as DocMutation })),
  fc.constantFrom('__proto__', 'constructor', 'prototype').map((key) => ({ label: `a ${key} key`, apply: ((doc, n) => {
    const objects = [doc, ...placesOf(doc).map((p) => p.reduce((v, k) => v[k], doc)).filter((v) => v !== null && typeof v === 'object' && !Array.isArray(v))]
    Object.defineProperty(pick(objects, n), key, { value: { polluted: true }, enumerable: true, configurable: true, writable: true })
  }) as DocMutation })),
  fc.constantFrom<[string, DocMutation]>(
    ['a dangling calledRule', (doc, n) => { const node = pick(nodesOf(doc), n); if (node) Object.assign(node, { type: 'ruleCall', calledRule: { rule: 'nope' } }) }],
    ['a calledRule of a set not here', (doc, n) => { const node = pick(nodesOf(doc), n); if (node) Object.assign(node, { type: 'ruleCall', calledRule: { rule: 'abc', adviceSet: 'No such set' } }) }],
    ['a dangling api', (doc, n) => { const node = pick(nodesOf(doc), n); if (node) Object.assign(node, { type: 'apiCall', variable: 'Age', api: 'No such API' }) }],
    ['a dangling supplement', (doc, n) => { const node = pick(nodesOf(doc), n); if (node) node.supplements = ['nope'] }],
    ['a dangling set supplement', (doc) => { doc.adviceSet.supplements = ['nope'] }],
    ['dangling expected advice', (doc, n) => { const s = pick<Json>(doc.scenarios, n); if (s) s.expected.advice = ['nope'] }],
    ['a dangling focus', (doc, n) => { const s = pick<Json>(doc.scenarios, n); if (s) s.expected.focus = 'nope' }],
    ['a dangling pinned API', (doc, n) => { const s = pick<Json>(doc.scenarios, n); if (s) s.pinnedResponses = { Nope: { status: 200, body: {} } } }],
    ['a dangling keyword map scenario', (doc) => { doc.keywordMaps.push({ name: 'Dangling', phrases: ['x'], scenario: 'No such scenario' }) }],
    ['a duplicate rule key', (doc) => { if (doc.rules.length > 0) doc.rules.push({ ...doc.rules[0], name: 'Copy' }) }],
    ['a duplicate node key', (doc, n) => { const nodes = nodesOf(doc); if (nodes.length > 1) pick(nodes, n + 1).key = nodes[0].key }],
    ['a duplicate scenario', (doc) => { if (doc.scenarios.length > 0) doc.scenarios.push(doc.scenarios[0]) }],
    ['a duplicate dictionary name', (doc) => { if (doc.dictionary.length > 0) doc.dictionary.push({ ...doc.dictionary[0], name: doc.dictionary[0].name.toUpperCase() }) }],
    ['a type clash in the dictionary', (doc) => { if (doc.dictionary.length > 0) doc.dictionary[0].dataType = doc.dictionary[0].dataType === 'date' ? 'number' : 'date' }],
    ['a bad dictionary name', (doc) => { if (doc.dictionary.length > 0) doc.dictionary[0].name = 'two words' }],
    ['an unknown node type', (doc, n) => { const node = pick(nodesOf(doc), n); if (node) node.type = 'question' }],
    ['another format', (doc) => { doc.format = 'advice-set@2' }],
    ['a deleted set name', (doc) => { doc.adviceSet.name = '' }],
  ).map(([label, apply]) => ({ label, apply })),
  fc.constantFrom(1_000, 150_000, 3_000_000).map((size) => ({ label: `a string of ${size} characters`, apply: ((doc, n) => {
    const strings = placesOf(doc).filter((p) => typeof p.reduce((v, k) => v[k], doc) === 'string')
    const p = pick(strings, n); if (p) parentOf(doc, p)[p.at(-1)!] = 'é'.repeat(size)
  }) as DocMutation })),
  fc.constantFrom('{{', '1 +', '{{Nope}} > 1', ')(', '"open', '{{Age}} >>> 2', '[[', '{{Age}} = ', 'a'.repeat(5000), '((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1').map((expression) => ({
    label: `the expression ${JSON.stringify(expression.slice(0, 20))}`,
    apply: ((doc, n) => { const node = pick(nodesOf(doc).filter((x) => x.expression !== undefined), n); if (node) node.expression = expression; else if (doc.dictionary[0]) Object.assign(doc.dictionary[0], { kind: 'formula', expression }) }) as DocMutation,
  })),
  fc.constantFrom('\u0000', '\ud800', '\udfff', '\u202e\u202d', '\uffff\ufffe', '\ufeff', 'e\u0301\u0301\u0301', '𝒜🏳️‍🌈', '\u2028\u2029', 'İı').map((s) => ({
    label: `unicode ${JSON.stringify(s)}`,
    apply: ((doc, n) => {
      const strings = placesOf(doc).filter((p) => typeof p.reduce((v, k) => v[k], doc) === 'string')
      const p = pick(strings, n); if (p) parentOf(doc, p)[p.at(-1)!] = `${s}${parentOf(doc, p)[p.at(-1)!]}`
      if (n % 3 === 0) doc.adviceSet[`${s}key`] = 1
    }) as DocMutation,
  })),
)

/** A change of the text, after the document is written. */
const textMutation: fc.Arbitrary<{ label: string; apply: (text: string) => string }> = fc.oneof(
  fc.double({ min: 0, max: 1, noNaN: true }).map((at) => ({ label: `truncated at ${at.toFixed(3)}`, apply: (text: string) => text.slice(0, Math.floor(text.length * at)) })),
  fc.constant({ label: 'a key twice', apply: (text: string) => text.replace('{\n', '{\n  "format": "advice-set@0",\n') }),
  fc.constant({ label: 'a BOM', apply: (text: string) => `\ufeff${text}` }),
  fc.constant({ label: 'a trailing comma', apply: (text: string) => text.replace(/\n\}\n$/, ',\n}\n') }),
  fc.constant({ label: 'not JSON after the end', apply: (text: string) => `${text}garbage` }),
  fc.constant({ label: 'a NUL byte', apply: (text: string) => text.replace('"format"', '"form\u0000at"') }),
  fc.constant({ label: 'a raw control character', apply: (text: string) => text.replace('"advice-set@1"', '"advice-set@1\u0001"') }),
)

/** A ZIP made bad: an entry renamed (same length, so the archive stays whole), bytes flipped, or cut short. */
const zipMutation: fc.Arbitrary<{ label: string; bytes: Buffer }> = fc.oneof(
  fc.constantFrom('../s1.png', '/etc/s1.pn', 'files/../x', 'files\\s1.p', 'C:/s1.png0', 'fil\u0000s/s1.', 'set.json..', 'files/set.', 'x/set.json').map((name) => {
    const from = Buffer.from('files/s1.png'.slice(0, Buffer.byteLength(name)))
    const to = Buffer.from(name)
    const bytes = Buffer.from(zipBase)
    for (let i = bytes.indexOf(from); i >= 0; i = bytes.indexOf(from, i + 1)) to.copy(bytes, i)
    return { label: `the entry renamed ${JSON.stringify(name)}`, bytes }
  }),
  fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }).map((flips) => {
    const bytes = Buffer.from(zipBase)
    for (const [at, value] of flips) bytes[at % bytes.length] = value
    return { label: `${flips.length} bytes changed`, bytes }
  }),
  fc.double({ min: 0, max: 1, noNaN: true }).map((at) => ({ label: `cut at ${at.toFixed(3)}`, bytes: zipBase.subarray(0, Math.max(4, Math.floor(zipBase.length * at))) })),
)

const upload_: fc.Arbitrary<{ label: string; file: UploadFile }> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.nat(bases.length - 1), fc.array(fc.tuple(docMutation, fc.nat()), { minLength: 1, maxLength: 3 }), fc.option(textMutation, { freq: 3 })).map(([base, changes, textChange]) => {
    const doc = JSON.parse(bases[base]!)
    const applied: string[] = []
    for (const [change, n] of changes) {
      // A change that expects a list or an object an earlier change replaced (rules made 1, a scenario made null)
      // cannot be made: the document goes on with the changes that could.
      try {
        change.apply(doc, n)
        applied.push(change.label)
      } catch (error) {
        if (!(error instanceof TypeError)) throw error
      }
    }
    const text = JSON.stringify(doc, null, 2)
    return {
      label: [...applied, ...(textChange ? [textChange.label] : [])].join('; ') || 'unchanged',
      file: { filename: 'set.json', data: Buffer.from(textChange ? textChange.apply(text) : text), type: 'application/json' },
    }
  }) },
  { weight: 1, arbitrary: zipMutation.map(({ label, bytes }) => ({ label: `ZIP: ${label}`, file: { filename: 'set.zip', data: bytes, type: 'application/zip' } })) },
)

t.test('a mutated document is imported (201) or refused (4xx), never a 500; a refusal writes nothing', async (t) => {
  const statuses = new Map<number, number>()
  await fc.assert(fc.asyncProperty(upload_, fc.boolean(), async ({ label, file }, into) => {
    const before = await rowCounts()
    const files = storedFiles()
    const res = await importBytes(admin, file, into ? `?into=${set.id}` : '')
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
    if (res.statusCode !== 201 && !(res.statusCode >= 400 && res.statusCode < 500)) throw new Error(`${label}: ${res.statusCode} ${JSON.stringify(res.body).slice(0, 500)}`)
    if (res.statusCode === 201) {
      const exported = await admin.api('GET', `/api/adviceset/${res.body.data.adviceSet.id}/export`)
      if (exported.statusCode !== 200 || !validator.Check(JSON.parse(exported.body))) throw new Error(`${label}: the imported set does not export as a valid document`)
      return
    }
    if (typeof res.body?.error?.message !== 'string') throw new Error(`${label}: a refusal without a message`)
    const after = await rowCounts()
    if (JSON.stringify(after) !== JSON.stringify(before)) throw new Error(`${label}: a refused import changed rows: ${JSON.stringify(before)} → ${JSON.stringify(after)}`)
    if (JSON.stringify(storedFiles()) !== JSON.stringify(files)) throw new Error(`${label}: a refused import left a file in the store`)
  }), { numRuns: Number(process.env.FC_RUNS ?? 60), seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31), endOnFailure: true })
  t.ok((statuses.get(400) ?? 0) > 0, `answers: ${JSON.stringify(Object.fromEntries(statuses))}`)
})
