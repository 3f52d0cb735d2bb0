// Issue 29 part 3: every statement the big tenant's pages send (scripts/scale/pages.ts) has a plan without a
// sequential scan on a table that grows with the tenant. The tenant here is small (seed:scale at 0.002), and a small
// table is cheapest to read whole, so the plans are asked for with sequential scans priced out (enable_seqscan off):
// the planner then takes an index wherever one can serve the statement, as it does with the big tenant's statistics,
// and a Seq Scan left in a plan means that no index can. A word filter (LIKE / ILIKE) that an index walk only
// filters counts too, unless its column has a trigram index. PostgreSQL only: the plans are PostgreSQL's.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import t from 'tap'
import postgres from 'postgres'
import { sql } from 'drizzle-orm'
import { loadConfig } from '../../../src/config.ts'
import { buildApp } from '../../../src/app.ts'
import { openDatabase } from '../../../src/db/client.ts'
import { hashPassword } from '../../../src/services/accounts/passwords.ts'
import { SCALE_ADMIN_EMAIL, seedScaleTenant } from '../../../scripts/scale/seed.ts'
import { SCALE_PAGES } from '../../../scripts/scale/pages.ts'
import { searchRuntime } from '../../../src/services/search.ts'
import { foldPastDecisionCounts } from '../../../src/services/decisions/maintenance.ts'
import { rowsOf } from '../../../src/db/queries/rule-nodes.ts'
import { openTestDatabase, testDriver } from '../../helpers/database.ts'
import { Agent } from '../../helpers/agent.ts'

/** Tables whose rows grow with the tenant (decision_records' monthly partitions are named after it). */
const GROWING = /^(advice_sets|rules|rule_nodes|users|activity|advice_scenarios|advice_scenario_runs|decision_records.*|decision_counts|search_documents|search_terms|api_keys|api_key_usage|keyword_maps|jobs|tag_links|tag_use_counts|tags|versions|entities|comments|sessions|recent_items|advice_requests|supplements|supplement_links)$/

interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  Filter?: string
  Plans?: PlanNode[]
}

function seqScans(node: PlanNode, found: string[] = []): string[] {
  if (node['Node Type'] === 'Seq Scan' && node['Relation Name'] && GROWING.test(node['Relation Name'])) found.push(node['Relation Name'])
  for (const child of node.Plans ?? []) seqScans(child, found)
  return found
}

/**
 * Columns of growing tables matched with a pattern (a word filter) after an index walk: `table.column`. With
 * sequential scans priced out the planner walks any index of the table, and on a small tenant it may prefer that to
 * the column's trigram index; so the test then asks whether the column has one (the big tenant's plans use it).
 */
function patternColumns(node: PlanNode, found: string[] = []): string[] {
  const table = node['Relation Name']
  if (table && GROWING.test(table) && node['Node Type'] !== 'Seq Scan') {
    for (const match of (node.Filter ?? '').matchAll(/(\w+)\s+!?~~\*?/g)) found.push(`${table}.${match[1]}`)
  }
  for (const child of node.Plans ?? []) patternColumns(child, found)
  return found
}

if (testDriver() !== 'postgres') {
  t.plan(0, 'query plans are PostgreSQL\'s: this test runs in the PostgreSQL suite')
} else {
  t.test('the app\'s connections plan without JIT and without parallel workers (their start costs more than its reads)', async (t) => {
    const testDb = await openTestDatabase()
    t.teardown(() => testDb.close())
    const database = await openDatabase({ kind: 'postgres', url: testDb.url! })
    t.teardown(() => database.close())
    const setting = async (name: string) => String(Object.values(rowsOf(await database.db.execute(sql.raw(`show ${name}`)))[0]!)[0])
    t.equal(await setting('jit'), 'off')
    t.equal(await setting('max_parallel_workers_per_gather'), '0')
  })

  t.test('the big tenant\'s pages: no sequential scan on a table that grows with it', async (t) => {
    const testDb = await openTestDatabase()
    t.teardown(() => testDb.close())
    const sent: Array<{ statement: string; parameters: unknown[] }> = []
    const database = await openDatabase({ kind: 'postgres', url: testDb.url!, onQuery: (statement, parameters) => sent.push({ statement, parameters }) })
    t.teardown(() => database.close())
    const explain = postgres(testDb.url!, { max: 1, onnotice: () => {} })
    t.teardown(() => explain.end())
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'query-plans-'))
    t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
    const app = await buildApp({ config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), db: database.db, logger: false })
    t.teardown(() => app.close())
    await app.ready()

    const tenant = await seedScaleTenant(app, 0.002)
    await database.db.execute(sql`update users set password_hash = ${await hashPassword('plans-Zq9-password')} where email = ${SCALE_ADMIN_EMAIL}`)
    const agent = new Agent(app)
    await agent.signIn(SCALE_ADMIN_EMAIL, 'plans-Zq9-password')
    const keyId = Number((await explain`select min(id) as id from api_keys where owner_id = 'scale'`)[0]!.id)
    const variableId = Number((await explain`select min(id) as id from entities where owner_id = 'scale' and reserved_name = 'Age'`)[0]!.id)
    const nodeId = Number((await explain`select min(id) as id from rule_nodes where rule_id = ${tenant.bigRuleId} and parent_id is null`)[0]!.id)
    const ids = { setId: tenant.bigSetId, ruleId: tenant.bigRuleId, nodeId, keyId, deepPage: 50, variableId }

    // Columns a trigram index serves: `table.column`, from each gin_trgm_ops index's definition.
    const trigramColumns = new Set<string>()
    for (const { tablename, indexdef } of await explain<Array<{ tablename: string; indexdef: string }>>`select tablename, indexdef from pg_indexes where indexdef like '%gin_trgm_ops%'`) {
      for (const match of indexdef.matchAll(/"?(\w+)"? gin_trgm_ops/g)) trigramColumns.add(`${tablename}.${match[1]}`)
    }

    async function planScans(statement: string, parameters: unknown[]): Promise<string[]> {
      const plan = await explain.begin(async (tx) => {
        await tx.unsafe('set local enable_seqscan = off')
        return tx.unsafe(`explain (format json) ${statement}`, parameters as never[])
      })
      const root = (plan[0]!['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan
      const unserved = patternColumns(root).filter((column) => !trigramColumns.has(column)).map((column) => `${column} (a pattern no index serves)`)
      return [...seqScans(root), ...unserved]
    }
    // The check itself: a statement that no index can serve is caught.
    t.same(await planScans('select count(*) from rule_nodes where headline like $1', ['%advice%']), ['rule_nodes'], 'a whole-table read is found')
    t.same(await planScans('select count(*) from rules where advice_set_id = $1 and name ilike $2', [tenant.bigSetId, '%advice%']), ['rules.name (a pattern no index serves)'], 'a pattern read through an index is found')

    for (const page of SCALE_PAGES) {
      sent.length = 0
      const res = page.json ? await agent.api(page.method, page.url(ids), page.body) : await agent.request({ method: page.method, url: page.url(ids) })
      t.equal(res.statusCode, 200, `${page.name} answers`)
      const reads = sent.filter((s) => /^\s*(select|with)\b/i.test(s.statement))
      t.ok(reads.length > 0, `${page.name} reads the database`)
      const scans: string[] = []
      for (const { statement, parameters } of reads) {
        for (const table of await planScans(statement, parameters)) scans.push(`${table} in: ${statement.replace(/\s+/g, ' ').slice(0, 400)}`)
      }
      t.same(scans, [], `${page.name}: ${reads.length} statements, none scans a growing table whole`)
    }

    // The set page reads its set once, with the actor's rights as the query's condition, and hands it to its sections
    // (services/library/set-ref.ts): each of them (scenario counts, files, requests, analytics) had read it again.
    sent.length = 0
    t.equal((await agent.request({ method: 'GET', url: `/adviceset/${tenant.bigSetId}/show` })).statusCode, 200)
    const setReads = sent.filter((s) => /"advice_sets"\."id" = \$1/.test(s.statement))
    t.equal(setReads.length, 1, 'the set page reads its set by id once')

    // The counts' fold (run at start and every six hours): the seed's records left every past day's counts in stripes.
    sent.length = 0
    t.ok(await foldPastDecisionCounts(database.db, new Date()) > 0, 'the fold folds the seeded days')
    const foldStatements = sent.filter((s) => /^\s*(select|with)\b/i.test(s.statement))
    t.equal(foldStatements.length, 2, 'the fold: two statements')
    const foldScans: string[] = []
    for (const { statement, parameters } of foldStatements) {
      for (const table of await planScans(statement, parameters)) foldScans.push(`${table} in: ${statement.replace(/\s+/g, ' ').slice(0, 400)}`)
    }
    t.same(foldScans, [], 'the fold reads only the rows to fold and their keys')

    // The search indexer's pass over node tasks (a rename of a name used everywhere leaves hundreds of thousands) reads
    // each batch's subtrees. The planner guesses a recursive query's rows from the tables' sizes, not from its 200
    // roots; a selection that it takes for hundreds of thousands of rows is read by hash-joining all rules and sets.
    const roots = (await explain`select id from rule_nodes order by id limit 200`).map((row) => String(row.id))
    await explain`insert into search_index_tasks (entity_type, entity_id) select 'rulenode', unnest(${roots}::text[])`
    sent.length = 0
    t.ok(await searchRuntime(app.deps).indexer.repair() >= 200, 'the indexer applies the node tasks')
    // (The subtree's ids alone are read by their own statement, a walk of the parent index whatever its estimate.)
    const subtreeReads = sent.filter((s) => /with recursive/i.test(s.statement) && !/^\s*with recursive/i.test(s.statement))
    t.ok(subtreeReads.length >= 2, 'it reads the nodes and their sets by subtree')
    for (const { statement, parameters } of subtreeReads) {
      const plan = await explain.unsafe(`explain (format json) ${statement}`, parameters as never[])
      const root = (plan[0]!['QUERY PLAN'] as Array<{ Plan: { 'Plan Rows': number } }>)[0]!.Plan
      t.ok(root['Plan Rows'] < 10 * roots.length, `planned for ${root['Plan Rows']} rows, not the tables' size: ${statement.replace(/\s+/g, ' ').slice(0, 120)}`)
    }
  })
}
