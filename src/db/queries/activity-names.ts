// The names behind the ids an activity page shows: users, owners, sets, rules, nodes, scenarios, tags, external
// APIs, versions, audiences, API keys and jobs, deleted ones included (the log tells what happened to them). One query per
// kind of id, whatever the number of rows on the page.
import { inArray } from 'drizzle-orm'
import type { Db } from '../client.ts'
import type { RuleNodeRow } from './rule-nodes.ts'
import {
  adviceScenarios, adviceSets, apiKeys, audiences, externalApis, jobs, owners, ruleNodes, rules, tags, users, versions,
} from '../schema/index.ts'

export interface ActivityNameIds {
  users: number[]
  owners: string[]
  sets: number[]
  rules: number[]
  nodes: number[]
  scenarios: number[]
  tags: number[]
  apis: number[]
  versions: number[]
  audiences: number[]
  apiKeys: number[]
  jobs: number[]
}

/** What the log needs of a node to name it. */
export type NamedNode = Pick<RuleNodeRow, 'id' | 'ruleId' | 'type' | 'expression' | 'variable' | 'headline' | 'text' | 'question' | 'calledRuleId' | 'apiId'>

async function byId<K, V>(ids: K[], read: (ids: K[]) => Promise<Array<{ id: K } & V>>): Promise<Map<K, V>> {
  if (ids.length === 0) return new Map()
  return new Map((await read([...new Set(ids)])).map((row) => [row.id, row]))
}

export async function activityNames(db: Db, ids: ActivityNameIds) {
  const [userRows, ownerRows, setRows, ruleRows, nodeRows, scenarioRows, tagRows, apiRows, versionRows, audienceRows, keyRows, jobRows] = await Promise.all([
    byId(ids.users, (list) => db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, list))),
    byId(ids.owners, (list) => db.select({ id: owners.id, name: owners.name }).from(owners).where(inArray(owners.id, list))),
    byId(ids.sets, (list) => db.select({ id: adviceSets.id, name: adviceSets.name }).from(adviceSets).where(inArray(adviceSets.id, list))),
    byId(ids.rules, (list) => db.select({ id: rules.id, name: rules.name, adviceSetId: rules.adviceSetId }).from(rules).where(inArray(rules.id, list))),
    byId(ids.nodes, (list) => db.select({
      id: ruleNodes.id, ruleId: ruleNodes.ruleId, type: ruleNodes.type, expression: ruleNodes.expression, variable: ruleNodes.variable,
      headline: ruleNodes.headline, text: ruleNodes.text, question: ruleNodes.question, calledRuleId: ruleNodes.calledRuleId, apiId: ruleNodes.apiId,
    }).from(ruleNodes).where(inArray(ruleNodes.id, list))),
    byId(ids.scenarios, (list) => db.select({ id: adviceScenarios.id, name: adviceScenarios.name }).from(adviceScenarios).where(inArray(adviceScenarios.id, list))),
    byId(ids.tags, (list) => db.select({ id: tags.id, name: tags.label }).from(tags).where(inArray(tags.id, list))),
    byId(ids.apis, (list) => db.select({ id: externalApis.id, name: externalApis.name }).from(externalApis).where(inArray(externalApis.id, list))),
    byId(ids.versions, (list) => db.select({ id: versions.id, number: versions.number, adviceSetId: versions.adviceSetId }).from(versions).where(inArray(versions.id, list))),
    byId(ids.audiences, (list) => db.select({ id: audiences.id, name: audiences.name }).from(audiences).where(inArray(audiences.id, list))),
    byId(ids.apiKeys, (list) => db.select({ id: apiKeys.id, name: apiKeys.name }).from(apiKeys).where(inArray(apiKeys.id, list))),
    byId(ids.jobs, (list) => db.select({ id: jobs.id, name: jobs.title }).from(jobs).where(inArray(jobs.id, list))),
  ])
  const name = <K>(rows: Map<K, { name: string }>) => new Map([...rows].map(([id, row]) => [id, row.name]))
  return {
    users: name(userRows), owners: name(ownerRows), sets: name(setRows), rules: ruleRows,
    nodes: nodeRows as Map<number, Omit<NamedNode, 'id'>>, scenarios: name(scenarioRows), tags: name(tagRows), apis: name(apiRows),
    versions: versionRows, audiences: name(audienceRows), apiKeys: name(keyRows), jobs: name(jobRows),
  }
}

export type ActivityNames = Awaited<ReturnType<typeof activityNames>>
