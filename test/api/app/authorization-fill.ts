// Fills a matrix row's request for one object kind: path params by name (what `:id` is depends on the route's
// family), and query and body from the route's own TypeBox schema (required fields, plus id-like fields), with ids
// taken from the chosen side of the world. Records whether anything named an object, so routes without one get a
// single column.
import type { Side } from './authorization-world.ts'

type Family = keyof Side
type Schema = { type?: string; properties?: Record<string, Schema>; required?: string[]; enum?: unknown[]; anyOf?: Schema[]; const?: unknown; items?: Schema; minItems?: number; maxLength?: number; pattern?: string; format?: string }

/** What a param or field of this name refers to. */
const BY_NAME: Record<string, Family> = {
  adviceSetId: 'set', ruleSetId: 'set', setId: 'set', ruleId: 'rule', nodeId: 'node', ruleNodeId: 'node', parentId: 'node',
  scenarioId: 'scenario', adviceScenarioId: 'scenario', versionId: 'version', keyId: 'apiKey', apiKeyId: 'apiKey',
  entityId: 'entity', tagId: 'tag', categoryId: 'category', audienceId: 'audience', keywordMapId: 'keywordMap',
  ownerId: 'owner', userId: 'user', requestId: 'adviceRequest', supplementId: 'media', externalApiId: 'externalApi',
  decisionId: 'decision',
}
/** What `:id` is, by the route's prefix (longest first); otherwise an advice set. */
const ID_BY_PREFIX: Array<[RegExp, Family]> = [
  [/^\/api\/adviceset\/:ruleSetId\/ai-user-request\/:id/, 'adviceRequest'],
  [/^\/api\/adviceset\/category\//, 'category'], [/^\/library\/categories\//, 'category'],
  [/^\/adviceset\/:ruleSetId\/advicescenario\/gen-branches\/:id/, 'scenario'],
  [/^\/api\/rule\//, 'rule'], [/^\/api\/entity\//, 'entity'], [/^\/api\/tags\//, 'tag'], [/^\/admin\/tag\//, 'tag'],
  [/^\/api\/comment\//, 'comment'], [/^\/api\/job\//, 'job'], [/^\/api\/external-api\//, 'externalApi'], [/^\/api-manager\//, 'externalApi'],
  [/^\/api\/advicescenario\//, 'scenario'], [/^\/api\/keywordmap\//, 'keywordMap'], [/^\/api\/supplements\//, 'media'],
  [/^\/media\//, 'media'], [/^\/visualizations\//, 'visualization'], [/^\/api\/owner\//, 'owner'], [/^\/api\/user\//, 'user'],
  [/^\/activity\//, 'activity'], [/^\/api\/activity\//, 'activity'], [/^\/api\/recentitem\//, 'recentItem'],
]
/** Params that name no object of the world. */
const FIXED: Record<string, string> = { token: 'not-a-real-token', type: 'variable', entityType: 'variable', resFormat: 'csv', taskId: 'no-such-task', objectID: 'ruleSet-1', tokenId: '999999' }

const NAMES = new Set(['name', 'reservedName', 'label'])
let probeCount = 0

export class Filler {
  usedObject = false
  constructor(private side: Side, private idFamily: Family | undefined) {}

  id(family: Family): string {
    this.usedObject = true
    return String(this.side[family])
  }

  familyOfId(url: string): Family {
    return this.idFamily ?? ID_BY_PREFIX.find(([re]) => re.test(url))?.[1] ?? 'set'
  }

  /** The url with its params filled; `given` ones (a row's own, e.g. a real token) first. */
  path(url: string, given: Record<string, string> = {}): string {
    return url.replace(/:([A-Za-z]+)/g, (_, name: string) => {
      if (name in given) return given[name]!
      if (name in FIXED) return FIXED[name]!
      if (name === 'id') return this.id(this.familyOfId(url))
      const family = BY_NAME[name]
      if (!family) throw new Error(`no filler for :${name} in ${url}`)
      return this.id(family)
    })
  }

  /** An example object for a schema: required fields, and optional ones that name an object. */
  value(name: string, schema: Schema, url: string): unknown {
    const family = name === 'id' ? this.familyOfId(url) : BY_NAME[name]
    if (family) {
      const id = this.id(family)
      return schema.type === 'integer' || schema.type === 'number' ? Number(id) : id
    }
    if (schema.const !== undefined) return schema.const
    if (schema.enum) return schema.enum[0]
    if (schema.anyOf) return this.value(name, schema.anyOf.find((s) => s.type !== 'null') ?? schema.anyOf[0]!, url)
    switch (schema.type) {
      case 'object': return this.object(schema, url)
      case 'array': return schema.minItems ? [this.value(name, schema.items ?? {}, url)] : []
      case 'integer': case 'number': return 1
      case 'boolean': return false
      case 'string': return NAMES.has(name) ? `${name === 'reservedName' ? 'Matrix_probe' : 'Matrix probe'}_${++probeCount}` : name === 'email' ? 'probe@example.test' : /^url/i.test(name) ? 'https://example.com/probe' : 'Matrix probe'
      default: return undefined
    }
  }

  object(schema: Schema | undefined, url: string): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
      const required = schema?.required?.includes(name) ?? false
      // Names too, so a copy made by the provider admin (which every team may read) does not carry a private marker.
      if (!required && !(name in BY_NAME) && !NAMES.has(name) && !(name === 'id' && url.includes('/api/adviceset'))) continue
      const v = this.value(name, prop, url)
      if (v !== undefined) out[name] = v
    }
    return out
  }
}
