// A big tenant (issue 29 part 3): one owner with, at scale 1, 50,000 advice sets, 250,000 rules, 2,000,000 rule nodes,
// 5,000 users, 2,000,000 activity rows, 200,000 scenarios and 2,000,000 decision records, plus the API keys, usage,
// tags, keyword maps and jobs its admin pages list. Rows are made by generated SQL (generate_series), so seeding takes
// minutes; only what needs the app's own code goes through it: the admin's password, the published versions, one real
// answer of the Advice API (copied for the rest of the records) and the search index.
import { fillAllNodeReferences } from '../../src/services/authoring/node-references.ts'
import { sql } from 'drizzle-orm'
import type { Db } from '../../src/db/client.ts'
import { ensureMonthPartition } from '../../src/db/queries/decisions.ts'
import { insertVersion, nextVersionNumber } from '../../src/db/queries/versions.ts'
import { insertUser } from '../../src/db/queries/users.ts'
import { issueApiKey } from '../../src/services/delivery/api-keys.ts'
import { hashPassword } from '../../src/services/accounts/passwords.ts'
import { contentHashOf, snapshotAdviceSet } from '../../src/services/publishing/snapshot.ts'
import { changeVersions } from '../../src/services/publishing/versions.ts'
import { reindexAll } from '../../src/services/search.ts'
import { monthStart } from '../../src/services/decisions/maintenance.ts'
import type { FastifyInstance } from 'fastify'
import type { Deps } from '../../src/services/context.ts'
import { rowsOf } from '../../src/db/queries/rule-nodes.ts'

export const SCALE_OWNER_ID = 'scale'
export const SCALE_ADMIN_EMAIL = 'admin@scale.example'

/** Rows at scale 1. */
export const FULL_SIZE = {
  adviceSets: 50_000, rulesPerSet: 5, nodesPerRule: 8, users: 5_000, activity: 2_000_000, scenariosPerSet: 4,
  decisionRecords: 2_000_000, apiKeys: 2_000, tags: 300, keywordMaps: 2_000, jobs: 20_000, categories: 40,
} as const

/** Sets with a published version: the decision records are theirs, half of them on the first. */
const PUBLISHED_SETS = 10
/** Conditions of the one big rule: each with four advice items under it, 200 nodes. */
const BIG_RULE_CONDITIONS = 40
const WORDS = ['pension', 'mortgage', 'savings', 'tax', 'insurance', 'retirement', 'budget', 'loan', 'investment', 'estate', 'annuity', 'income']

export interface ScaleTenant {
  adminEmail: string
  adminPassword: string
  /** The first advice set: published, with half of the decision records and the 200-node rule. */
  bigSetId: number
  bigRuleId: number
  counts: Record<string, number>
}

const count = (full: number, scale: number) => Math.max(1, Math.round(full * scale))

async function exec(db: Db, text: string): Promise<void> {
  await db.execute(sql.raw(text))
}

/** The first column of a statement's first row, as a number. */
export async function scalar(db: Db, text: string): Promise<number> {
  return Number(Object.values(rowsOf(await db.execute(sql.raw(text)))[0]!)[0])
}

/**
 * The search index rebuilt as a bulk load: its GIN indexes are dropped first and made again after, from their own
 * definitions, since building a GIN index whole is far quicker than adding to it row by row (without a pending list,
 * each insert updates every posting list it touches).
 */
export async function indexInBulk(deps: Deps): Promise<void> {
  const indexes = rowsOf(await deps.db.execute(sql`select indexname, indexdef from pg_indexes where tablename in ('search_documents', 'search_terms') and indexdef like '% USING gin %'`))
  for (const index of indexes) await exec(deps.db, `drop index "${String(index.indexname)}"`)
  await reindexAll(deps)
  for (const index of indexes) await exec(deps.db, String(index.indexdef))
}

/**
 * Seeds the tenant in the app's database; `log` hears each step with its time. Refuses if the owner exists. The app
 * answers one real Advice API request per published set, in durable mode, and those records are copied.
 */
export async function seedScaleTenant(app: FastifyInstance, scale: number, log: (line: string) => void = () => {}): Promise<ScaleTenant> {
  const deps = app.deps
  const db = deps.db
  if (await scalar(db, `select count(*) from owners where id = '${SCALE_OWNER_ID}'`) > 0) throw new Error(`the owner "${SCALE_OWNER_ID}" is already seeded in this database`)
  const n = {
    sets: count(FULL_SIZE.adviceSets, scale), users: count(FULL_SIZE.users, scale), activity: count(FULL_SIZE.activity, scale),
    records: count(FULL_SIZE.decisionRecords, scale), apiKeys: count(FULL_SIZE.apiKeys, scale), tags: count(FULL_SIZE.tags, scale),
    keywordMaps: count(FULL_SIZE.keywordMaps, scale), jobs: count(FULL_SIZE.jobs, scale), categories: count(FULL_SIZE.categories, scale),
  }
  const words = `array[${WORDS.map((w) => `'${w}'`).join(',')}]`
  async function step(name: string, run: () => Promise<void>) {
    const started = performance.now()
    await run()
    log(`${name} (${((performance.now() - started) / 1000).toFixed(1)} s)`)
  }

  const adminPassword = `scale-${Math.random().toString(36).slice(2, 10)}-Zq9`
  let adminId = 0
  await step(`owner, ${n.users.toLocaleString('en')} users, ${n.categories} categories, ${n.tags} tags`, async () => {
    await exec(db, `insert into owners (id, name) values ('${SCALE_OWNER_ID}', 'Scale Advisers')`)
    adminId = (await insertUser(db, { ownerId: SCALE_OWNER_ID, email: SCALE_ADMIN_EMAIL, name: 'Scale Admin', role: 'admin', passwordHash: await hashPassword(adminPassword) })).id
    await exec(db, `insert into users (owner_id, email, name, role, status, created_at, updated_at)
      select '${SCALE_OWNER_ID}', 'user-' || g || '@scale.example', 'Scale User ' || g, (array['author','author','viewer','admin']::user_role[])[1 + g % 4],
        (array['active','active','active','invited','deactivated']::user_status[])[1 + g % 5], now() - g * interval '1 hour', now() - g * interval '1 hour'
      from generate_series(1, ${n.users - 1}) g`)
    await exec(db, `insert into advice_categories (owner_id, name) select '${SCALE_OWNER_ID}', 'Category ' || g from generate_series(1, ${n.categories}) g`)
    await exec(db, `insert into tags (owner_id, slug, label, type)
      select '${SCALE_OWNER_ID}', 'scale-tag-' || g, initcap((${words})[1 + g % 12]) || ' ' || g, (array['advice_group','advice_type','label']::tag_type[])[1 + g % 3]
      from generate_series(1, ${n.tags}) g`)
    await exec(db, `insert into entities (owner_id, entity_type_id, reserved_name, data_type, description)
      values ('${SCALE_OWNER_ID}', 12, 'Age', 'number', 'Age in whole years.'), ('${SCALE_OWNER_ID}', 12, 'Income', 'number', 'Gross yearly income.')`)
  })

  // Ids made by one insert of a fresh owner are consecutive: each later step counts from the first.
  const firstUser = adminId
  await step(`${n.sets.toLocaleString('en')} advice sets with tags`, async () => {
    const firstCategory = await scalar(db, `select min(id) from advice_categories where owner_id = '${SCALE_OWNER_ID}'`)
    await exec(db, `insert into advice_sets (owner_id, category_id, name, name_alt, description, is_public, is_starter, created_by, updated_by, created_at, updated_at)
      select '${SCALE_OWNER_ID}', ${firstCategory} + g % ${n.categories}, initcap((${words})[1 + g % 12]) || ' advice ' || g, '',
        'Advice on ' || (${words})[1 + g % 12] || ' and ' || (${words})[1 + (g / 12) % 12] || ' for clients of segment ' || (g % 97),
        g % 50 = 0, g % 200 = 0, ${firstUser} + g % ${n.users}, ${firstUser} + g % ${n.users},
        now() - g * (interval '365 days' / ${n.sets}), now() - g * (interval '365 days' / ${n.sets})
      from generate_series(1, ${n.sets}) g order by g`)
    const firstTag = await scalar(db, `select min(id) from tags where owner_id = '${SCALE_OWNER_ID}'`)
    await exec(db, `insert into tag_links (tag_id, entity_type, entity_id)
      select ${firstTag} + (s.id * 7 + k) % ${n.tags}, 'adviceset', s.id
      from advice_sets s cross join generate_series(0, 1) k where s.owner_id = '${SCALE_OWNER_ID}' and (k = 0 or s.id % 3 = 0)
      on conflict do nothing`)
  })
  const bigSetId = await scalar(db, `select min(id) from advice_sets where owner_id = '${SCALE_OWNER_ID}'`)

  let bigRuleId = 0
  await step(`${(n.sets * FULL_SIZE.rulesPerSet).toLocaleString('en')} rules, ${(n.sets * FULL_SIZE.rulesPerSet * FULL_SIZE.nodesPerRule).toLocaleString('en')} rule nodes, and a rule of ${BIG_RULE_CONDITIONS * 5}`, async () => {
    await exec(db, `insert into rules (advice_set_id, name, position, created_by, updated_by, created_at, updated_at)
      select s.id, initcap((${words})[1 + (s.id + p) % 12]) || ' check ' || (p + 1), p, s.created_by, s.updated_by, s.created_at, s.updated_at
      from advice_sets s cross join generate_series(0, ${FULL_SIZE.rulesPerSet - 1}) p where s.owner_id = '${SCALE_OWNER_ID}' order by s.id, p`)
    await exec(db, `insert into rules (advice_set_id, name, position) values (${bigSetId}, 'Large rule', ${FULL_SIZE.rulesPerSet})`)
    bigRuleId = await scalar(db, `select max(id) from rules where advice_set_id = ${bigSetId}`)
    // Each rule: two conditions on Age at the root, three advice items under each.
    const conditions = FULL_SIZE.nodesPerRule / 4
    await exec(db, `insert into rule_nodes (rule_id, position, type, expression, created_at, updated_at)
      select r.id, c, 'condition', '{{Age}} ' || (array['<','>=']::text[])[1 + c % 2] || ' ' || (30 + r.id % 30), r.created_at, r.updated_at
      from rules r join advice_sets s on s.id = r.advice_set_id cross join generate_series(0, ${conditions - 1}) c
      where s.owner_id = '${SCALE_OWNER_ID}' and r.id <> ${bigRuleId} order by r.id, c`)
    await exec(db, `insert into rule_nodes (rule_id, position, type, expression)
      select ${bigRuleId}, c, 'condition', '{{Age}} >= ' || (18 + c) from generate_series(0, ${BIG_RULE_CONDITIONS - 1}) c`)
    await exec(db, `insert into rule_nodes (rule_id, parent_id, position, type, headline, text, created_at, updated_at)
      select c.rule_id, c.id, k, 'advice', initcap((${words})[1 + (c.id + k) % 12]) || ' advice ' || c.id || '.' || k,
        'Consider your ' || (${words})[1 + (c.id + k) % 12] || ' position.', c.created_at, c.updated_at
      from rule_nodes c join rules r on r.id = c.rule_id join advice_sets s on s.id = r.advice_set_id
        cross join generate_series(0, case when c.rule_id = ${bigRuleId} then 3 else ${FULL_SIZE.nodesPerRule / conditions - 2} end) k
      where s.owner_id = '${SCALE_OWNER_ID}' and c.parent_id is null order by c.id, k`)
  })

  await step(`${(n.sets * FULL_SIZE.scenariosPerSet).toLocaleString('en')} scenarios`, async () => {
    await exec(db, `insert into advice_scenarios (advice_set_id, name, inputs, expected, created_by, created_at, updated_at)
      select s.id, 'Client aged ' || (20 + k * 15), json_build_object('Age', 20 + k * 15)::jsonb, '{"advice":[],"focus":"complete","variables":{}}'::jsonb,
        s.created_by, s.created_at, s.created_at
      from advice_sets s cross join generate_series(0, ${FULL_SIZE.scenariosPerSet - 1}) k where s.owner_id = '${SCALE_OWNER_ID}' order by s.id, k`)
  })

  await step(`${n.activity.toLocaleString('en')} activity rows`, async () => {
    // A year of edits: renames of sets, rules and nodes, in the shape the services write (name or headline before and after).
    const firstRule = await scalar(db, `select min(r.id) from rules r where r.advice_set_id = ${bigSetId}`)
    const firstNode = await scalar(db, `select min(id) from rule_nodes where rule_id = ${firstRule}`)
    const ruleCount = n.sets * FULL_SIZE.rulesPerSet
    await exec(db, `insert into activity (owner_id, actor_id, source, action, entity_type, entity_id, before, after, created_at)
      select '${SCALE_OWNER_ID}', ${firstUser} + g % ${n.users}, 'users', 'update',
        (array['adviceset','rule','rulenode'])[1 + g % 3],
        (case g % 3 when 0 then ${bigSetId} + g % ${n.sets} when 1 then ${firstRule} + g % ${ruleCount} else ${firstNode} + g % ${ruleCount * 2} end)::text,
        case g % 3 when 2 then json_build_object('expression', '{{Age}} < ' || (g % 60))::jsonb else json_build_object('name', 'Old name ' || g)::jsonb end,
        case g % 3 when 2 then json_build_object('expression', '{{Age}} < ' || (g % 60 + 1))::jsonb else json_build_object('name', 'New name ' || g)::jsonb end,
        now() - g * (interval '365 days' / ${n.activity})
      from generate_series(1, ${n.activity}) g`)
  })

  await step(`${n.apiKeys} API keys with a year of usage, ${n.keywordMaps.toLocaleString('en')} keyword maps, ${n.jobs.toLocaleString('en')} jobs`, async () => {
    await exec(db, `insert into api_keys (owner_id, name, prefix, secret_hash, environment, created_by, created_at, last_used_at)
      select '${SCALE_OWNER_ID}', 'Partner key ' || g, 'sc' || lpad(g::text, 6, '0'), md5('scale-key-' || g), (array['production','preview'])[1 + g % 2],
        ${adminId}, now() - g * interval '1 day', now() - (g % 30) * interval '1 hour'
      from generate_series(1, ${n.apiKeys}) g`)
    await exec(db, `insert into api_key_usage (key_id, day, advice_set_id, requests, errors)
      select k.id, current_date - d, ${bigSetId} + k.id % ${PUBLISHED_SETS}, 100 + (k.id * d) % 900, (k.id + d) % 7
      from api_keys k cross join generate_series(0, 364) d where k.owner_id = '${SCALE_OWNER_ID}'`)
    await exec(db, `insert into keyword_maps (owner_id, name, phrases, advice_set_id, created_by, updated_by, created_at, updated_at)
      select '${SCALE_OWNER_ID}', 'Keyword map ' || g, array[(${words})[1 + g % 12] || ' ' || g, 'help with ' || (${words})[1 + (g / 12) % 12]],
        ${bigSetId} + g % ${n.sets}, ${adminId}, ${adminId}, now() - g * interval '1 hour', now() - g * interval '1 hour'
      from generate_series(1, ${n.keywordMaps}) g`)
    await exec(db, `insert into jobs (kind, owner_id, user_id, subject, title, state, progress, result, max_attempts, created_at, started_at, finished_at, updated_at)
      select 'scenarios.run-all', '${SCALE_OWNER_ID}', ${firstUser} + g % ${n.users}, 'adviceset:' || (${bigSetId} + g % ${n.sets}), 'Run all scenarios', 'completed', 100,
        '{}'::jsonb, 3, now() - g * interval '10 minutes', now() - g * interval '10 minutes', now() - g * interval '10 minutes' + interval '3 seconds', now() - g * interval '10 minutes'
      from generate_series(1, ${n.jobs}) g`)
  })

  let secret = ''
  await step(`version 1 published on ${PUBLISHED_SETS} sets`, async () => {
    const now = new Date()
    for (let adviceSetId = bigSetId; adviceSetId < bigSetId + Math.min(PUBLISHED_SETS, n.sets); adviceSetId++) {
      await changeVersions(db, adviceSetId, async (tx) => {
        const snapshot = await snapshotAdviceSet(tx, adviceSetId)
        return insertVersion(tx, {
          adviceSetId, number: await nextVersionNumber(tx, adviceSetId), state: 'published', notes: 'Seeded by seed:scale.',
          snapshot, contentHash: contentHashOf(snapshot), createdBy: adminId, submittedBy: adminId, submittedAt: now, approvedBy: adminId, approvedAt: now, publishedBy: adminId, publishedAt: now,
        })
      })
    }
    ;({ secret } = await issueApiKey(db, {
      ownerId: SCALE_OWNER_ID, name: 'Scale production key', environment: 'production', audienceId: null, allowedAdviceSetIds: [], allowedOrigins: [],
      rateLimit: 1_000_000, adviceRequests: false, explain: false, createdBy: adminId,
    }))
  })

  await step(`${n.records.toLocaleString('en')} decision records over 300 days, half of them on the first set`, async () => {
    for (let month = -11; month <= 1; month++) await ensureMonthPartition(db, monthStart(new Date(), month))
    await exec(db, `update owners set decision_mode = 'durable' where id = '${SCALE_OWNER_ID}'`)
    app.partner.recorder.settings.forgetOwner(SCALE_OWNER_ID)
    const published = Math.min(PUBLISHED_SETS, n.sets)
    for (let i = 0; i < published; i++) {
      const response = await app.inject({ method: 'GET', url: `/api/advice/${bigSetId + i}?Age=${40 + i}`, headers: { authorization: `Bearer ${secret}`, accept: 'application/json' } })
      if (response.statusCode !== 200 || !response.headers['decision-id']) throw new Error(`the Advice API answered ${response.statusCode} for set ${bigSetId + i}: ${response.body.slice(0, 200)}`)
    }
    await exec(db, `update owners set decision_mode = 'best_effort' where id = '${SCALE_OWNER_ID}'`)
    app.partner.recorder.settings.forgetOwner(SCALE_OWNER_ID)
    // Record g belongs to the first set when g is odd, else to one of the others: half on the first.
    // The real records first, numbered by set (slot 0 is the first set), so each copy finds its own by a hash join.
    await exec(db, `with real as materialized (select *, (row_number() over (order by advice_set_id))::int - 1 as slot from decision_records where owner_id = '${SCALE_OWNER_ID}')
      insert into decision_records (id, received_at, owner_id, advice_set_id, version_id, version_number, api_key_id, environment, endpoint,
        content_type, inputs, personal_hashes, status, advice_node_ids, has_errors, outcome, engine_micros)
      select gen_random_uuid(), now() - (g * (interval '300 days' / ${n.records})), r.owner_id, r.advice_set_id, r.version_id, r.version_number, r.api_key_id,
        r.environment, r.endpoint, r.content_type, r.inputs, r.personal_hashes, r.status, r.advice_node_ids, r.has_errors, r.outcome, r.engine_micros
      from generate_series(1, ${n.records - published}) g join real r on r.slot = case when g % 2 = 1 or ${published} = 1 then 0 else 1 + (g / 2) % ${Math.max(1, published - 1)} end`)
  })

  await step('search index', () => indexInBulk(deps))

  // As the server's filler does behind writes: the names each node refers to, for the dictionary's where-used.
  await step('node references', async () => { await fillAllNodeReferences(db) })

  await step('vacuum analyze', async () => {
    await exec(db, 'vacuum analyze')
  })

  return { adminEmail: SCALE_ADMIN_EMAIL, adminPassword, bigSetId, bigRuleId, counts: n }
}
