// npm run bench:scenario-runs — 1,000 advice scenarios against a 500-node advice set (scripts/bench/engine.ts's
// synthetic set), target < 1 s on one core. Measured on the service path: the batch compiles its source once, then
// evaluates and compares every scenario (services/scenarios/runs.ts). Reported three ways: in memory (compile +
// evaluate + compare, nothing read or written), and through the database (set and scenarios read from rows) without
// and with storing the 1,000 run rows. PGlite always; PostgreSQL too when TEST_DATABASE_URL is set.
import os from 'node:os'
import { mkdtempSync, rmSync } from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import postgres from 'postgres'
import { loadConfig } from '../../src/config.ts'
import { openDatabase, type Database } from '../../src/db/client.ts'
import { insertAdviceSet } from '../../src/db/queries/advice-sets.ts'
import { insertEntity } from '../../src/db/queries/entities.ts'
import { insertNode } from '../../src/db/queries/rule-nodes.ts'
import { insertRule } from '../../src/db/queries/rules.ts'
import { insertScenario } from '../../src/db/queries/scenarios.ts'
import { insertOwner, insertUser } from '../../src/db/queries/users.ts'
import { ENTITY_TYPES, compileAdviceSet, evaluate, type AdviceSetModel, type NodeModel } from '../../src/engine/index.ts'
import { buildAdviceSetModel } from '../../src/services/authoring/advice-set-model.ts'
import { actorForUser } from '../../src/services/accounts/users.ts'
import type { Actor, Deps } from '../../src/services/context.ts'
import { expectedFromRun } from '../../src/services/scenarios/outcome.ts'
import { executePlan, planRun, runScenario, type RunnableScenario } from '../../src/services/scenarios/runs.ts'
import { syntheticAdviceSet, syntheticInputs } from './fixtures/synthetic.ts'
import { median } from './measure.ts'
import { dropDatabase } from '../../test/helpers/drop-database.ts'

const NODES = 500
const SCENARIOS = 1000
const ROUNDS = 5
const TARGET_MS = 1000
const NOW = new Date('2026-01-15T00:00:00Z')

/** Expected outcomes from a first run (checking {{Score}} too), so every scenario passes when measured. */
function scenariosFor(model: AdviceSetModel): RunnableScenario[] {
  const compiled = compileAdviceSet(model)
  return syntheticInputs(SCENARIOS).map((inputs) => ({
    inputs, runAsOf: null, expected: expectedFromRun(evaluate(compiled, inputs, { render: false, now: NOW }), { variables: ['Score'] }),
  }))
}

function inMemory(model: AdviceSetModel, scenarios: RunnableScenario[]): { ms: number; passed: number } {
  const started = performance.now()
  const compiled = compileAdviceSet(model)
  let passed = 0
  for (const scenario of scenarios) if (runScenario(compiled, scenario, { now: NOW }).status === 'pass') passed++
  return { ms: performance.now() - started, passed }
}

/** The synthetic set as rows (rules, nodes, dictionary) of an owner of its own, and its scenarios. */
async function load(database: Database): Promise<{ deps: Deps; actor: Actor; adviceSetId: number; dataDir: string }> {
  await database.migrate()
  const db = database.db
  await insertOwner(db, { id: 'bench', name: 'Bench' })
  const user = await insertUser(db, { ownerId: 'bench', email: 'bench@example.test', name: 'Bench', role: 'author', passwordHash: null })
  const set = await insertAdviceSet(db, { ownerId: 'bench', name: 'Bench set', nameAlt: '', description: '', categoryId: null, isPublic: false, isStarter: false, createdBy: null })
  const model = syntheticAdviceSet(NODES)
  for (const entity of model.entities) {
    await insertEntity(db, {
      ownerId: 'bench', adviceSetId: set.id, entityTypeId: entity.kind === 'formula' ? ENTITY_TYPES.formula.id : ENTITY_TYPES.variable.id,
      reservedName: entity.name, dataType: entity.dataType ?? null, validOptions: entity.options ?? [], isClosedSet: entity.isClosedSet ?? false,
      displayFormat: entity.displayFormat ?? null, defaultValue: entity.defaultValue ?? null, expression: entity.expression ?? null,
      isConstant: false, description: '', createdBy: null,
    })
  }
  for (const [position, rule] of model.rules.entries()) {
    const row = await insertRule(db, { adviceSetId: set.id, name: rule.name, position, createdBy: null })
    const add = async (nodes: NodeModel[], parentId: number | null) => {
      for (const [index, node] of nodes.entries()) {
        const inserted = await insertNode(db, {
          ruleId: row.id, parentId, position: index, type: node.type, expression: node.expression ?? null, variable: node.variable ?? null,
          headline: node.headline ?? null, text: node.text ?? null, question: node.question ?? null, calledRuleId: null, apiId: null,
          tags: node.tags ?? [], sources: [], createdBy: null,
        })
        await add(node.children, inserted.id)
      }
    }
    await add(rule.nodes, null)
  }
  // Expected outcomes in terms of the stored node ids.
  const stored = await buildAdviceSetModel(db, set.id)
  for (const [i, scenario] of scenariosFor(stored).entries()) {
    await insertScenario(db, { adviceSetId: set.id, name: `Scenario ${i + 1}`, description: '', ...scenario, createdBy: user.id })
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-scenarios-'))
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SESSION_SECRET: 'x'.repeat(32) })
  return { deps: { db, config } as unknown as Deps, actor: actorForUser(user), adviceSetId: set.id, dataDir }
}

interface DbRound { planMs: number; runMs: number; passed: number }

async function throughDatabase(label: string, database: Database): Promise<void> {
  const started = performance.now()
  const { deps, actor, adviceSetId, dataDir } = await load(database)
  console.log(`\n${label}: ${NODES}-node set and ${SCENARIOS} scenarios loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  try {
    for (const store of [false, true]) {
      const rounds: DbRound[] = []
      for (let round = 0; round < ROUNDS; round++) {
        const planStarted = performance.now()
        const plan = await planRun(deps, actor, { adviceSetId, source: 'draft' })
        const runStarted = performance.now()
        const batch = await executePlan(deps, actor, plan, { store })
        rounds.push({ planMs: runStarted - planStarted, runMs: performance.now() - runStarted, passed: batch.counts.pass })
      }
      const total = rounds.map((r) => r.planMs + r.runMs)
      const m = median(total)
      console.log(`  ${store ? 'storing the run rows' : 'without storing    '}: median ${m.toFixed(0)} ms (best ${Math.min(...total).toFixed(0)} ms) = ` +
        `read + compile ${median(rounds.map((r) => r.planMs)).toFixed(0)} ms + evaluate, compare${store ? ', insert' : ''} ${median(rounds.map((r) => r.runMs)).toFixed(0)} ms; ` +
        `${rounds[0]!.passed}/${SCENARIOS} pass ${m < TARGET_MS ? '✓' : '✗'} < ${TARGET_MS} ms`)
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  console.log(`# Scenario runs bench: ${SCENARIOS} scenarios, ${NODES}-node set, median of ${ROUNDS} rounds`)
  console.log(`node ${process.version}, ${os.cpus().length} cpus (one used), load average ${os.loadavg().map((n) => n.toFixed(1)).join(' ')}`)

  const model = syntheticAdviceSet(NODES)
  const scenarios = scenariosFor(model)
  inMemory(model, scenarios) // warm-up
  const rounds = Array.from({ length: ROUNDS }, () => inMemory(model, scenarios))
  const ms = median(rounds.map((r) => r.ms))
  console.log(`\nin memory (compile once + evaluate + compare): median ${ms.toFixed(0)} ms (best ${Math.min(...rounds.map((r) => r.ms)).toFixed(0)} ms), ` +
    `${(ms * 1000 / SCENARIOS).toFixed(0)} µs a scenario; ${rounds[0]!.passed}/${SCENARIOS} pass ${ms < TARGET_MS ? '✓' : '✗'} < ${TARGET_MS} ms`)

  const pglite = await openDatabase({ kind: 'pglite' })
  try {
    await throughDatabase('PGlite (embedded)', pglite)
  } finally {
    await pglite.close()
  }

  const url = process.env.TEST_DATABASE_URL
  if (!url) {
    console.log('\nTEST_DATABASE_URL is not set: PostgreSQL skipped.')
    return
  }
  const name = 'advice_studio_bench_scenarios'
  const admin = postgres(url, { max: 1, onnotice: () => {} })
  await dropDatabase(admin, name)
  await admin.unsafe(`CREATE DATABASE ${name}`)
  const target = new URL(url)
  target.pathname = `/${name}`
  const pg = await openDatabase({ kind: 'postgres', url: target.toString() })
  try {
    await throughDatabase('PostgreSQL', pg)
  } finally {
    await pg.close()
    await dropDatabase(admin, name)
    await admin.end()
  }
}

await main()
