// Generated advice sets for the advice-set@1 round trip (issue 28), stored through the query layer: every node type
// (a Rule Call of the set's own rule and of another set's, an API Call of an API whose header is secret), unicode names
// of rules, headlines, dictionary entries and scenarios, entries of both kinds and both scopes, scenarios with expected
// advice, focus and variables and pinned API responses, and keyword maps. Trees are written a level at a time (one
// insert per level of a rule), so a set of 5,000 nodes is stored in well under a second.
import fc from 'fast-check'
import type { Db } from '../../src/db/client.ts'
import { insertEntity } from '../../src/db/queries/entities.ts'
import { insertKeywordMap } from '../../src/db/queries/keyword-maps.ts'
import { insertRule, listRules, type RuleRow } from '../../src/db/queries/rules.ts'
import { insertScenario } from '../../src/db/queries/scenarios.ts'
import { ruleNodes } from '../../src/db/schema/index.ts'
import { ENTITY_TYPES, NAME_PATTERN } from '../../src/engine/index.ts'
import { createAdviceSet } from './advice-sets.ts'
import { createExternalApiDefinition } from './external-apis.ts'

/** The dictionary's roles: a number asked for, a choice, a yes/no, a number assigned, a formula, the API's answer. */
export type Role = 'N' | 'S' | 'B' | 'M' | 'F' | 'R'
const ROLES: Role[] = ['N', 'S', 'B', 'M', 'F', 'R']

/** A node as generated: expressions name the roles ({{N}}), calls name 'own' or 'library', API Calls the one API. */
export interface GenNode {
  type: string
  expression?: string
  variable?: Role
  headline?: string
  text?: string
  question?: string
  call?: 'own' | 'library'
  tags?: string[]
  sources?: Array<{ id: string; name: string; uri?: string }>
  children: GenNode[]
}

export interface GenScenario {
  name: string
  answers: { N?: number; S?: string; B?: boolean }
  /** Expected variables to check ({{N}}, {{M}}). */
  variables: Role[]
  /** Pinned answer of the API: the value mapped to {{R}}, or a failing status. */
  pinned: { status: number; value: number }
  /** After a first run the expected outcome is set to the actual one (a passing scenario); else it stays made up. */
  fromRun: boolean
  description: string
}

export interface GenSet {
  setName: string
  names: Record<Role, string>
  /** Which entries are the set's own (the rest are the owner's). */
  own: Record<Role, boolean>
  options: string[]
  calledOnly: boolean
  rules: Array<{ name: string; nodes: GenNode[] }>
  scenarios: GenScenario[]
  keywordMaps: Array<{ name: string; phrases: string[]; scenario: number | null }>
}

const LETTERS = ['a', 'Z', 'é', 'ß', 'Ø', 'ж', 'Ω', 'λ', '中', '文', '한', 'ا', 'ק', 'ñ', 'İ', 'ǅ', '𝒜', 'ー', 'ก']
const TAIL = [...LETTERS, '٣', '7', '_', '?']
/** A dictionary name the engine accepts (NAME_PATTERN), unicode. */
const baseName = fc.tuple(fc.constantFrom(...LETTERS), fc.array(fc.constantFrom(...TAIL), { maxLength: 6 })).map(([first, rest]) => first + rest.join(''))

/** Text with any unicode a person types (no NUL: PostgreSQL text holds none). */
const words = (max: number) => fc.string({ unit: 'grapheme', minLength: 1, maxLength: max }).map((s) => s.replace(/\u0000/g, '')).filter((s) => s.trim().length > 0)
const unicodeName = fc.tuple(words(30), fc.constantFrom('', ' ✓', ' — 日本', ' Ünïcødé', ' 🎉')).map(([a, b]) => `${a}${b}`.slice(0, 200))

const condition = fc.oneof(
  fc.tuple(fc.constantFrom('<', '<=', '>', '>=', '==', '!='), fc.integer({ min: 0, max: 10 })).map(([op, n]) => `{{N}} ${op} ${n}`),
  fc.tuple(fc.constantFrom('==', '!='), fc.constantFrom(0, 1, 2)).map(([op, i]) => `{{S}} ${op} #${i}`),
  fc.constantFrom('{{B}}', '!{{B}}', '{{R}} > 5', '[[F]] >= 9', '{{N}} > 3 && {{B}}'),
)

const leaf: fc.Arbitrary<GenNode> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ headline: unicodeName, tags: fc.subarray(['assumption', 'example', 'follow-on']) }).map(({ headline, tags }): GenNode => ({
    type: 'advice', headline, text: 'N {{N}}, F [[F]], M {{M}}', ...(tags.length > 0 ? { tags } : {}), children: [],
  })) },
  { weight: 1, arbitrary: fc.constant<GenNode>({ type: 'ruleExit', children: [] }) },
  { weight: 1, arbitrary: fc.constantFrom<'own' | 'library'>('own', 'library').map((call): GenNode => ({ type: 'ruleCall', call, children: [] })) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 5 }).map((n): GenNode => ({ type: 'variableAssignment', expression: `{{M}} = {{N}} + ${n}`, children: [] })) },
  { weight: 1, arbitrary: fc.constant<GenNode>({ type: 'formula', variable: 'F', children: [] }) },
  { weight: 1, arbitrary: fc.constant<GenNode>({ type: 'apiCall', variable: 'R', children: [] }) },
)

const tree: fc.Memo<GenNode> = fc.memo((depth) => depth <= 1
  ? leaf
  : fc.oneof(
      { weight: 2, arbitrary: leaf },
      { weight: 2, arbitrary: fc.tuple(condition, fc.array(tree(depth - 1), { minLength: 1, maxLength: 3 })).map(([expression, children]): GenNode => ({ type: 'condition', expression, children })) },
      { weight: 1, arbitrary: fc.tuple(fc.array(tree(depth - 1), { minLength: 1, maxLength: 2 }), fc.boolean()).map(([children, source]): GenNode => ({
        type: 'conditionAlways', children, ...(source ? { sources: [{ id: 'law-1', name: 'Pensions Act § 3', uri: 'https://example.test/law' }] } : {}),
      })) },
    ))

const scenario: fc.Arbitrary<Omit<GenScenario, 'name'>> = fc.record({
  answers: fc.record({ N: fc.integer({ min: -1, max: 11 }), S: fc.constantFrom(0, 1, 2).map(String), B: fc.boolean() }, { requiredKeys: [] }),
  variables: fc.subarray<Role>(['N', 'M']),
  pinned: fc.record({ status: fc.constantFrom(200, 200, 200, 503), value: fc.integer({ min: 0, max: 10 }) }),
  fromRun: fc.boolean(),
  description: fc.oneof(fc.constant(''), words(40)),
})

export const genSet: fc.Arbitrary<GenSet> = fc.record({
  setName: unicodeName,
  base: fc.uniqueArray(baseName, { minLength: ROLES.length, maxLength: ROLES.length, selector: (s) => s.toLowerCase() }),
  own: fc.record({ N: fc.boolean(), S: fc.boolean(), B: fc.boolean(), M: fc.boolean(), F: fc.boolean(), R: fc.boolean() }),
  options: fc.uniqueArray(fc.constantFrom('ja', 'nej', 'ä', 'β', '中', 'x y'), { minLength: 3, maxLength: 3 }),
  calledOnly: fc.boolean(),
  rules: fc.array(fc.record({ name: unicodeName, nodes: fc.array(tree(4), { minLength: 1, maxLength: 4 }) }), { minLength: 1, maxLength: 3 }),
  scenarios: fc.uniqueArray(fc.tuple(unicodeName, scenario), { maxLength: 4, selector: ([name]) => name }),
  keywordMaps: fc.array(fc.record({ name: unicodeName, phrases: fc.array(words(20), { minLength: 1, maxLength: 3 }), scenario: fc.option(fc.nat(3)) }), { maxLength: 2 }),
}).map(({ base, scenarios, keywordMaps, ...rest }): GenSet => {
  const names = Object.fromEntries(ROLES.map((role, i) => [role, base[i]!])) as Record<Role, string>
  for (const name of Object.values(names)) if (!NAME_PATTERN.test(name)) throw new Error(`not a dictionary name: ${name}`)
  return {
    ...rest, names,
    scenarios: scenarios.map(([name, s]) => ({ name, ...s })),
    keywordMaps: keywordMaps.map((m) => ({ ...m, scenario: m.scenario !== null && m.scenario < scenarios.length ? m.scenario : null })),
  }
})

export function countNodes(nodes: GenNode[]): number {
  return nodes.reduce((n, node) => n + 1 + countNodes(node.children), 0)
}

/** The set's nodes made about `target` in number: its rules' trees repeated (each copy its own nodes). */
export function grown(set: GenSet, target: number): GenSet {
  const others = set.rules.slice(1).reduce((n, r) => n + countNodes(r.nodes), 0) + 4
  const copies = Math.max(1, Math.round((target - others) / countNodes(set.rules[0]!.nodes)))
  return { ...set, rules: set.rules.map((rule, i) => ({ ...rule, nodes: i === 0 ? Array.from({ length: copies }, () => rule.nodes).flat() : rule.nodes })) }
}

export interface StoredGenSet {
  set: { id: number; name: string }
  library: { id: number; name: string }
  apiId: number
  nodes: number
}

/** Stores a generated set (and the library set it calls) for the owner `ownerId`; the owner's dictionary is theirs alone. */
export async function storeGenSet(db: Db, secretKey: string, ownerId: string, gen: GenSet): Promise<StoredGenSet> {
  const { names } = gen
  const rename = (text: string) => text
    .replace(/\{\{([NSBMR])\}\}/g, (_m, role: Role) => `{{${names[role]}}}`)
    .replace(/\[\[F\]\]/g, `[[${names.F}]]`)
    .replace(/#(\d)/g, (_m, i: string) => JSON.stringify(gen.options[Number(i)]))
  const library = await createAdviceSet(db, { ownerId, name: `Library of ${gen.setName}`.slice(0, 200) })
  const set = await createAdviceSet(db, { ownerId, name: gen.setName })
  const entry = async (role: Role, fields: { dataType: string; options?: string[]; expression?: string; defaultValue?: unknown; displayFormat?: string }) => insertEntity(db, {
    ownerId, adviceSetId: gen.own[role] ? set.id : null, entityTypeId: fields.expression ? ENTITY_TYPES.formula.id : ENTITY_TYPES.variable.id, reservedName: names[role],
    dataType: fields.dataType, validOptions: fields.options ?? [], isClosedSet: fields.options !== undefined, displayFormat: fields.displayFormat ?? null,
    defaultValue: fields.defaultValue ?? null, expression: fields.expression ?? null, isConstant: false, description: `${names[role]}: ✓ described`, createdBy: null,
  })
  await entry('N', { dataType: 'number', displayFormat: '0.0' })
  await entry('S', { dataType: 'select', options: gen.options })
  await entry('B', { dataType: 'boolean' })
  await entry('M', { dataType: 'number', defaultValue: 0 })
  await entry('F', { dataType: 'number', expression: `{{${names.N}}} * 2 + 1` })
  await entry('R', { dataType: 'number' })
  const api = await createExternalApiDefinition(db, secretKey, {
    ownerId, name: `Rates ${names.R}`, urlTemplate: 'https://rates.example.test/v1/rate',
    headers: [{ name: 'Authorization', value: 'Bearer s3cr3t-value', secret: true }, { name: 'Accept', value: 'application/json', secret: false }],
    responseMapping: [{ path: '/value', variable: names.R, dataType: 'number' }],
  })

  const libraryRule = await insertRule(db, { adviceSetId: library.id, name: 'Shared ✓', position: 0, createdBy: null })
  await insertTrees(db, libraryRule.id, [{ type: 'advice', headline: 'From the library — 図書館', children: [] }], rename, new Map(), String(api.id))
  const own = await insertRule(db, { adviceSetId: set.id, name: `Called ${names.F}`, position: 0, onlyWhenCalled: gen.calledOnly, createdBy: null })
  const calls = new Map<'own' | 'library', number>([['own', own.id], ['library', libraryRule.id]])
  let nodes = await insertTrees(db, own.id, [{ type: 'condition', expression: '[[F]] > 9', children: [{ type: 'advice', headline: 'Big F', text: '[[F]] from {{N}}', children: [] }] }], rename, calls, String(api.id))
  for (const [i, rule] of gen.rules.entries()) {
    const row: RuleRow = await insertRule(db, { adviceSetId: set.id, name: rule.name, position: (await listRules(db, set.id)).length, createdBy: null })
    const asks: GenNode[] = i > 0 ? [] : [
      { type: 'inputRequest', variable: 'N', question: 'How many? — いくつ?', children: [] },
      { type: 'inputRequest', variable: 'S', question: 'Which one?', children: [] },
      { type: 'inputRequest', variable: 'B', question: 'Yes or no?', children: [] },
      { type: 'apiCall', variable: 'R', children: [] },
    ]
    nodes += await insertTrees(db, row.id, [...asks, ...rule.nodes], rename, calls, String(api.id))
  }
  const scenarioIds: number[] = []
  for (const s of gen.scenarios) {
    const inputs: Record<string, unknown> = {}
    if (s.answers.N !== undefined) inputs[names.N] = s.answers.N
    if (s.answers.S !== undefined) inputs[names.S] = gen.options[Number(s.answers.S)]
    if (s.answers.B !== undefined) inputs[names.B] = s.answers.B
    scenarioIds.push((await insertScenario(db, {
      adviceSetId: set.id, name: s.name, description: s.description, inputs, runAsOf: null,
      expected: { advice: [], focus: 'complete', variables: Object.fromEntries(s.variables.map((role) => [names[role], null])) },
      pinnedResponses: { [String(api.id)]: { status: s.pinned.status, body: { value: s.pinned.value } } },
      createdBy: null,
    })).id)
  }
  for (const map of gen.keywordMaps) {
    await insertKeywordMap(db, { ownerId, adviceSetId: set.id, name: map.name, phrases: map.phrases, scenarioId: map.scenario === null ? null : scenarioIds[map.scenario] ?? null, createdBy: null })
  }
  return { set, library, apiId: api.id, nodes }
}

/** Writes trees a level at a time: one insert for all the nodes of a level of the rule. */
async function insertTrees(db: Db, ruleId: number, roots: GenNode[], rename: (text: string) => string, calls: Map<'own' | 'library', number>, apiId: string): Promise<number> {
  let level: Array<{ node: GenNode; parentId: number | null; position: number }> = roots.map((node, position) => ({ node, parentId: null, position }))
  let count = 0
  while (level.length > 0) {
    const rows = await db.insert(ruleNodes).values(level.map(({ node, parentId, position }) => ({
      ruleId, parentId, position, type: node.type, expression: node.expression === undefined ? null : rename(node.expression),
      variable: node.variable === undefined ? null : rename(`{{${node.variable}}}`).slice(2, -2), headline: node.headline ?? null,
      text: node.text === undefined ? null : rename(node.text), question: node.question ?? null, calledRuleId: node.call === undefined ? null : calls.get(node.call)!,
      apiId: node.type === 'apiCall' ? apiId : null, tags: node.tags ?? [], sources: node.sources ?? [], createdBy: null, updatedBy: null,
    }))).returning({ id: ruleNodes.id })
    count += rows.length
    level = level.flatMap(({ node }, i) => node.children.map((child, position) => ({ node: child, parentId: rows[i]!.id, position })))
  }
  return count
}
