// npm run bench:portability — the advice-set@1 file form (issue 28) with a generated set of about 5,000 nodes (every
// node type, scenarios with pinned API answers: test/helpers/portable-sets.ts), on PGlite (or BENCH_DATABASE_URL's
// PostgreSQL). Export: the document of the working draft, median of several runs (target < 500 ms). Import: the same
// document uploaded as a new set into a second database, including the checks and the run of its scenarios (target
// < 3 s). Memory: peak RSS growth while importing a document of about 20 MB (the 5,000 nodes' advice texts padded),
// target < 200 MB.
import os from 'node:os'
import { mkdtempSync, rmSync } from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import fc from 'fast-check'
import { loadConfig } from '../../src/config.ts'
import { insertOwner, insertUser } from '../../src/db/queries/users.ts'
import { createFileStore } from '../../src/files/index.ts'
import { actorForUser } from '../../src/services/accounts/users.ts'
import type { Actor, Deps } from '../../src/services/context.ts'
import { exportAdviceSet } from '../../src/services/library/portable-export.ts'
import { documentText, type AdviceSetDocument, type PortableNode } from '../../src/services/library/portable-format.ts'
import { MAX_JSON_BYTES } from '../../src/services/library/portable-json.ts'
import { importUploadedFile } from '../../src/services/library/portable-upload.ts'
import { runScenarios } from '../../src/services/scenarios/runs.ts'
import { countNodes, genSet, grown, storeGenSet } from '../../test/helpers/portable-sets.ts'
import { openBenchDatabase, type BenchDatabase } from './bench-database.ts'
import { median } from './measure.ts'

const NODES = 5000
const EXPORT_ROUNDS = 7
const IMPORT_ROUNDS = 3
const EXPORT_TARGET_MS = 500
const IMPORT_TARGET_MS = 3000
const RSS_TARGET_MB = 200
const mb = (bytes: number) => bytes / 1024 / 1024

interface Side { bench: BenchDatabase; deps: Deps; actor: Actor; close(): Promise<void> }

async function side(name: string): Promise<Side> {
  const bench = await openBenchDatabase(name)
  const db = bench.database.db
  await insertOwner(db, { id: 'bench', name: 'Bench' })
  const user = await insertUser(db, { ownerId: 'bench', email: 'bench@example.test', name: 'Bench', role: 'admin', passwordHash: null })
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `bench-portability-${name}-`))
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SESSION_SECRET: 'x'.repeat(32) })
  const files = createFileStore(config)
  return {
    bench, deps: { db, config, files } as unknown as Deps, actor: actorForUser(user),
    close: async () => {
      await files.close()
      await bench.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

async function importText(to: Side, text: string) {
  const outcome = await importUploadedFile(to.deps, to.actor, { filename: 'set.json', bytes: Buffer.from(text) }, { dryRun: false })
  if (outcome.kind !== 'imported') throw new Error('not imported')
  return outcome.result
}

/** The document with every advice node's text padded, so that it is about `bytes` long. */
function padded(doc: AdviceSetDocument, bytes: number): string {
  const size = Buffer.byteLength(documentText(doc))
  let advice = 0
  const count = (nodes: PortableNode[]): void => nodes.forEach((n) => { if (n.type === 'advice') advice += 1; count(n.children) })
  doc.rules.forEach((r) => count(r.nodes))
  const pad = 'Padding so that the document weighs what a large real one does. '.repeat(Math.ceil((bytes - size) / advice / 64)).slice(0, Math.floor((bytes - size) / advice))
  const grow = (nodes: PortableNode[]): void => nodes.forEach((n) => { if (n.type === 'advice') n.text = `${n.text ?? ''}${pad}`; grow(n.children) })
  doc.rules.forEach((r) => grow(r.nodes))
  return documentText({ ...doc, adviceSet: { ...doc.adviceSet, name: `${doc.adviceSet.name} (20 MB)` } })
}

async function main(): Promise<void> {
  const source = await side('source')
  const target = await side('target')
  try {
    console.log(`# Portability bench (advice-set@1): a ${NODES}-node set on ${source.bench.driver}`)
    console.log(`node ${process.version}, ${os.cpus().length} cpus, load average ${os.loadavg().map((n) => n.toFixed(1)).join(' ')}`)
    const [gen] = fc.sample(genSet.filter((g) => g.scenarios.length >= 3), { numRuns: 1, seed: 28 })
    const big = grown(gen!, NODES)
    let started = performance.now()
    const stored = await storeGenSet(source.deps.db, source.deps.config.secretKey, 'bench', big)
    console.log(`\nstored ${stored.nodes} nodes, ${big.scenarios.length} scenarios (${big.rules.reduce((n, r) => n + countNodes(r.nodes), 0)} generated) in ${(performance.now() - started).toFixed(0)} ms`)

    const exportMs: number[] = []
    let text = ''
    for (let i = 0; i < EXPORT_ROUNDS; i++) {
      started = performance.now()
      text = documentText((await exportAdviceSet(source.deps, source.actor, stored.set.id)).document)
      exportMs.push(performance.now() - started)
    }
    const exportMedian = median(exportMs)
    console.log(`export: median ${exportMedian.toFixed(0)} ms (best ${Math.min(...exportMs).toFixed(0)} ms) of ${EXPORT_ROUNDS}, ${(mb(Buffer.byteLength(text))).toFixed(1)} MB ` +
      `${exportMedian < EXPORT_TARGET_MS ? '✓' : '✗'} < ${EXPORT_TARGET_MS} ms`)

    const libraryText = documentText((await exportAdviceSet(source.deps, source.actor, stored.library.id)).document)
    await importText(target, libraryText)
    const importMs: number[] = []
    let scenarios = ''
    for (let i = 0; i < IMPORT_ROUNDS; i++) {
      started = performance.now()
      const result = await importText(target, text)
      importMs.push(performance.now() - started)
      scenarios = `${result.scenarios.counts.pass} pass, ${result.scenarios.counts.fail} fail, ${result.scenarios.counts.error} error`
    }
    const importMedian = median(importMs)
    // The generated scenarios' expectations are random: what matters is that the import gives the source's outcome.
    const before = (await runScenarios(source.deps, source.actor, { adviceSetId: stored.set.id, source: 'draft' })).counts
    scenarios += ` (the source set: ${before.pass} pass, ${before.fail} fail, ${before.error} error)`
    console.log(`import (checks, one transaction, scenarios run): median ${importMedian.toFixed(0)} ms (best ${Math.min(...importMs).toFixed(0)} ms) of ${IMPORT_ROUNDS}; scenarios ${scenarios} ` +
      `${importMedian < IMPORT_TARGET_MS ? '✓' : '✗'} < ${IMPORT_TARGET_MS} ms`)

    const heavy = padded(JSON.parse(text) as AdviceSetDocument, MAX_JSON_BYTES - 512 * 1024)
    text = ''
    globalThis.gc?.()
    const baseline = process.memoryUsage().rss
    let peak = baseline
    const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss) }, 5)
    started = performance.now()
    await importText(target, heavy)
    const heavyMs = performance.now() - started
    clearInterval(sampler)
    peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024)
    const growth = mb(peak - baseline)
    console.log(`import of a ${mb(Buffer.byteLength(heavy)).toFixed(1)} MB document: ${heavyMs.toFixed(0)} ms, peak RSS growth ${growth.toFixed(0)} MB ` +
      `(RSS ${mb(baseline).toFixed(0)} → ${mb(peak).toFixed(0)} MB) ${growth < RSS_TARGET_MB ? '✓' : '✗'} < ${RSS_TARGET_MB} MB`)
  } finally {
    await source.close()
    await target.close()
  }
}

await main()
