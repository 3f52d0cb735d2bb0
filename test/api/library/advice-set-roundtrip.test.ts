// Issue 28, acceptance: the advice-set@1 round trip as a property. Generated sets (test/helpers/portable-sets.ts: every
// node type, Rule Calls of the set's own rule and of another set's, an API Call of an API with a secret header, unicode
// names, entries of both kinds and scopes, scenarios with pinned responses, keyword maps), up to 5,000 nodes, are
// exported from one database and imported into a second one where their team has nothing (the called set first, as
// an author would); exporting them there gives the same bytes (but `version`, when the file came from a version), and
// every scenario has the same outcome before and after.
import t from 'tap'
import type { Test } from 'tap'
import fc from 'fast-check'
import { buildTestApp, type TestContext } from '../../helpers/app.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { countNodes, genSet, grown, storeGenSet, type GenSet } from '../../helpers/portable-sets.ts'
import { ruleNodes } from '../../../src/db/schema/index.ts'
import { findScenariosOfSet, updateScenario } from '../../../src/db/queries/scenarios.ts'
import type { Actor } from '../../../src/services/context.ts'
import { createVersion } from '../../../src/services/publishing/versions.ts'
import { exportAdviceSet } from '../../../src/services/library/portable-export.ts'
import { documentText } from '../../../src/services/library/portable-format.ts'
import { importUploadedFile } from '../../../src/services/library/portable-upload.ts'
import { runScenarios } from '../../../src/services/scenarios/runs.ts'

const source = await buildTestApp(t)
const target = await buildTestApp(t)

/** A team of its own in a database: nothing of another run is seen by it. */
async function team(ctx: TestContext): Promise<Actor> {
  const ownerId = await createOwner(ctx.database.db)
  const user = await createUser(ctx.database.db, { ownerId, role: 'admin' })
  return { userId: user.id, ownerId, role: 'admin', impersonatorId: null }
}

async function exportText(ctx: TestContext, actor: Actor, setId: number, versionNumber?: number): Promise<string> {
  return documentText((await exportAdviceSet(ctx.app.deps, actor, setId, versionNumber === undefined ? {} : { versionNumber })).document)
}

/** Each scenario's outcome in keys, not ids: its status, the advice given, the focus and the errors' nodes. */
async function outcomes(ctx: TestContext, actor: Actor, setId: number) {
  const keys = new Map((await ctx.database.db.select({ id: ruleNodes.id, key: ruleNodes.key }).from(ruleNodes)).map((r) => [String(r.id), r.key]))
  const key = (id: string) => keys.get(id) ?? `missing ${id}`
  const batch = await runScenarios(ctx.app.deps, actor, { adviceSetId: setId, source: 'draft' })
  return batch.results.map((r) => ({
    name: r.name, status: r.status, errorMessage: r.errorMessage,
    actual: r.actual && {
      advice: r.actual.advice.map(key), focus: r.actual.focus === 'complete' ? 'complete' : key(r.actual.focus), variables: r.actual.variables,
      errors: r.actual.errors.map((e) => ({ code: e.code, node: e.nodeId === undefined || e.nodeId === null ? null : key(String(e.nodeId)) })),
    },
  }))
}

async function roundTrip(t: Test, gen: GenSet, fromVersion: boolean): Promise<void> {
  const actorA = await team(source)
  const stored = await storeGenSet(source.database.db, source.config.secretKey, actorA.ownerId, gen)
  // Half the scenarios expect what a first run gives (they pass), the others what was made up (most fail).
  const first = await runScenarios(source.app.deps, actorA, { adviceSetId: stored.set.id, source: 'draft' })
  const rows = await findScenariosOfSet(source.database.db, stored.set.id)
  for (const [i, s] of gen.scenarios.entries()) {
    const actual = first.results.find((r) => r.scenarioId === rows[i]!.id)?.actual
    if (s.fromRun && actual) await updateScenario(source.database.db, rows[i]!.id, { expected: { advice: actual.advice, focus: actual.focus, variables: actual.variables }, updatedBy: null })
  }
  const before = await outcomes(source, actorA, stored.set.id)
  let versionNumber: number | undefined
  if (fromVersion) versionNumber = (await createVersion(source.app.deps, actorA, { adviceSetId: stored.set.id })).number
  const libraryText = await exportText(source, actorA, stored.library.id)
  const text = await exportText(source, actorA, stored.set.id, versionNumber)

  const actorB = await team(target)
  const bytes = (s: string) => ({ filename: 'set.json', bytes: Buffer.from(s) })
  const library = await importUploadedFile(target.app.deps, actorB, bytes(libraryText), { dryRun: false })
  if (library.kind !== 'imported') throw new Error('the library was not imported')
  const imported = await importUploadedFile(target.app.deps, actorB, bytes(text), { dryRun: false })
  if (imported.kind !== 'imported') throw new Error('the set was not imported')
  const setB = imported.result.adviceSet.id

  t.equal(await exportText(target, actorB, library.result.adviceSet.id), libraryText, 'the called set exports the same bytes')
  const expected = versionNumber === undefined ? text : documentText({ ...JSON.parse(text), version: null })
  const again = await exportText(target, actorB, setB)
  if (again !== expected) t.same(JSON.parse(again), JSON.parse(expected), 'the same document')
  t.equal(again, expected, `export → import → export gives the same bytes (${stored.nodes} nodes${versionNumber ? ', from a version' : ''})`)
  t.same(imported.result.scenarios.results, before.map((o) => ({ name: o.name, status: o.status })), 'the import’s own run: the same statuses')
  t.same(await outcomes(target, actorB, setB), before, 'every scenario has the same outcome')
  t.same(imported.result.plan.errors, [])
}

t.test('export → import into an empty database → export: the same bytes and the same scenario outcomes', async (t) => {
  let runs = 0
  await fc.assert(fc.asyncProperty(genSet, fc.boolean(), async (gen, fromVersion) => {
    runs += 1
    await t.test(`run ${runs}`, (t) => roundTrip(t, gen, fromVersion))
    if (t.counts.fail > 0) throw new Error('the round trip failed (see above)')
  }), { numRuns: 10, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31), endOnFailure: true })
})

t.test('a set of about 5,000 nodes makes the same round trip', async (t) => {
  const [gen] = fc.sample(genSet.filter((g) => g.scenarios.length >= 3), { numRuns: 1, seed: 28 })
  const big = grown(gen!, 5000)
  const nodes = big.rules.reduce((n, r) => n + countNodes(r.nodes), 0)
  t.ok(nodes >= 4500 && nodes <= 5500, `${nodes} generated nodes`)
  await roundTrip(t, big, false)
})
