// The file form of an advice set, `advice-set@1` (issue 28): one JSON document per set, without database ids. Rules
// and nodes carry their keys (kept for their life and across versions), and every reference is by key or by name:
// a Rule Call names the called rule's key (and its set's name when it is another set's), an API Call names the
// external API, a scenario's expected advice names node keys, a supplement is named by its key in the document.
//
// These TypeBox types are the one source of the format: the importer validates with them, and the JSON Schema served
// at /schemas/advice-set-1.json (and kept in the repository as schemas/advice-set-1.json) is generated from them.
// Objects are written in the order their properties are declared here (portable-export.ts), so the text is canonical.
import { Type, type Static } from '@fastify/type-provider-typebox'
import { DATA_TYPES, NODE_TYPES } from '../../engine/index.ts'
import { SUPPLEMENT_FORMATS, SUPPLEMENT_TYPES } from '../../db/schema/supplements.ts'

export const FORMAT_NAME = 'advice-set@1'
export const SCHEMA_PATH = '/schemas/advice-set-1.json'

/** A rule's or node's key: what the database generates (16 hex digits), or any short token a hand-written file uses. */
const Key = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'Stable identity: kept for the life of the rule or node, across versions and files.' })
const Name = Type.String({ minLength: 1, maxLength: 200 })
const Text = Type.String({ maxLength: 100_000 })

const SourceLink = Type.Object({
  id: Type.String({ maxLength: 200 }),
  name: Type.String({ maxLength: 500 }),
  uri: Type.Optional(Type.String({ maxLength: 2000 })),
}, { additionalProperties: false, description: 'A source typed into the node itself.' })

const CalledRule = Type.Object({
  rule: Key,
  name: Type.Optional(Type.String({ maxLength: 200, description: 'The called rule’s name, for readers; the key decides.' })),
  adviceSet: Type.Optional(Type.String({ maxLength: 200, description: 'Another set’s name when the rule is not this set’s.' })),
}, { additionalProperties: false })

const Comment = Type.Object({
  author: Type.String({ maxLength: 200 }),
  at: Type.String({ maxLength: 40, description: 'ISO 8601 time of writing.' }),
  body: Type.String({ minLength: 1, maxLength: 20_000 }),
}, { additionalProperties: false })

export interface PortableNode {
  key: string
  type: (typeof NODE_TYPES)[number]
  expression?: string
  variable?: string
  headline?: string
  text?: string
  question?: string
  calledRule?: Static<typeof CalledRule>
  api?: string
  tags?: string[]
  sources?: Array<Static<typeof SourceLink>>
  supplements?: string[]
  comments?: Array<Static<typeof Comment>>
  children: PortableNode[]
}

/** A rule-tree node; which fields matter depends on `type`, as in the engine's model (engine/model.ts NodeModel). */
const Node = Type.Cyclic({
  Node: Type.Object({
    key: Key,
    type: Type.Enum([...NODE_TYPES]),
    expression: Type.Optional(Text),
    variable: Type.Optional(Type.String({ maxLength: 200 })),
    headline: Type.Optional(Text),
    text: Type.Optional(Text),
    question: Type.Optional(Text),
    calledRule: Type.Optional(CalledRule),
    api: Type.Optional(Type.String({ maxLength: 200, description: 'The external API’s name (see externalApis).' })),
    tags: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: 20 })),
    sources: Type.Optional(Type.Array(SourceLink, { maxItems: 100 })),
    supplements: Type.Optional(Type.Array(Key, { maxItems: 100, description: 'Keys of supplements (see supplements) linked to the node.' })),
    comments: Type.Optional(Type.Array(Comment, { maxItems: 1000 })),
    children: Type.Array(Type.Ref('Node')),
  }, { additionalProperties: false }),
}, 'Node')

const Rule = Type.Object({
  key: Key,
  name: Name,
  onlyWhenCalled: Type.Boolean(),
  nodes: Type.Array(Node),
}, { additionalProperties: false })

const DictionaryEntry = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  kind: Type.Enum(['variable', 'formula']),
  dataType: Type.Union([Type.Enum([...DATA_TYPES]), Type.Null()]),
  options: Type.Array(Type.String({ maxLength: 500 }), { maxItems: 1000 }),
  isClosedSet: Type.Boolean(),
  displayFormat: Type.Union([Type.String({ maxLength: 200 }), Type.Null()]),
  defaultValue: Type.Unknown(),
  expression: Type.Union([Text, Type.Null()]),
  isConstant: Type.Boolean(),
  personal: Type.Boolean(),
  description: Text,
  scope: Type.Enum(['set', 'owner'], { description: 'set: the set’s own entry; owner: shared by the owner’s sets.' }),
}, { additionalProperties: false })

const PinnedResponse = Type.Object({ status: Type.Integer({ minimum: 100, maximum: 599 }), body: Type.Unknown() }, { additionalProperties: false })

const Scenario = Type.Object({
  name: Name,
  description: Text,
  inputs: Type.Record(Type.String(), Type.Unknown()),
  runAsOf: Type.Union([Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), Type.Null()]),
  expected: Type.Object({
    advice: Type.Array(Key, { description: 'Keys of the advice nodes the run must give.' }),
    focus: Type.String({ maxLength: 64, description: '"complete", or the key of the input request asked next.' }),
    variables: Type.Record(Type.String(), Type.Unknown()),
  }, { additionalProperties: false }),
  pinnedResponses: Type.Record(Type.String(), PinnedResponse, { description: 'Recorded answers by external API name.' }),
}, { additionalProperties: false })

const KeywordMap = Type.Object({
  name: Name,
  phrases: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 200 }),
  scenario: Type.Union([Name, Type.Null()], { description: 'The scenario (by name) whose answers the target opens with.' }),
}, { additionalProperties: false })

const ApiHeader = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  value: Type.Union([Type.String({ maxLength: 4000 }), Type.Null()], { description: 'null for a secret: its value never leaves the instance.' }),
  secret: Type.Boolean(),
  placeholder: Type.Optional(Type.String({ maxLength: 200, description: 'A secret’s name, to be filled in after import.' })),
}, { additionalProperties: false })

const ExternalApi = Type.Object({
  name: Name,
  method: Type.String({ maxLength: 10 }),
  urlTemplate: Type.String({ maxLength: 4000 }),
  headers: Type.Array(ApiHeader, { maxItems: 50 }),
  bodyTemplate: Text,
  timeoutMs: Type.Integer({ minimum: 1 }),
  responseMapping: Type.Array(Type.Object({ path: Type.String({ maxLength: 500 }), variable: Type.String({ maxLength: 200 }), dataType: Type.String({ maxLength: 40 }) }, { additionalProperties: false }), { maxItems: 200 }),
  cacheTtlSeconds: Type.Integer({ minimum: 0 }),
  sampleResponse: Text,
}, { additionalProperties: false })

const Supplement = Type.Object({
  key: Key,
  name: Name,
  type: Type.Enum([...SUPPLEMENT_TYPES]),
  format: Type.Enum([...SUPPLEMENT_FORMATS]),
  contentType: Type.String({ maxLength: 200 }),
  fileExt: Type.String({ maxLength: 20 }),
  size: Type.Integer({ minimum: 0 }),
  description: Text,
  url: Type.Union([Type.String({ maxLength: 4000 }), Type.Null()]),
  imageUrl: Type.Union([Type.String({ maxLength: 4000 }), Type.Null()]),
  file: Type.Union([Type.String({ maxLength: 300 }), Type.Null()], { description: 'The file’s path in the ZIP form (files/…); null for a link.' }),
}, { additionalProperties: false })

export const AdviceSetDocument = Type.Object({
  format: Type.Literal(FORMAT_NAME),
  adviceSet: Type.Object({
    name: Name,
    nameAlt: Type.String({ maxLength: 200 }),
    description: Text,
    category: Type.Union([Name, Type.Null()]),
    isPublic: Type.Boolean(),
    tags: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100, description: 'Tag slugs.' }),
    supplements: Type.Array(Key, { maxItems: 100, description: 'Keys of supplements linked to the set itself.' }),
  }, { additionalProperties: false }),
  version: Type.Union([Type.Object({
    number: Type.Integer({ minimum: 1 }),
    publishedAt: Type.Union([Type.String(), Type.Null()]),
    contentHash: Type.String(),
  }, { additionalProperties: false }), Type.Null()], { description: 'The published version this file was exported from; null for the working draft.' }),
  dictionary: Type.Array(DictionaryEntry),
  rules: Type.Array(Rule),
  scenarios: Type.Array(Scenario),
  keywordMaps: Type.Array(KeywordMap),
  externalApis: Type.Array(ExternalApi),
  supplements: Type.Array(Supplement),
}, {
  $id: `https://advice.studio${SCHEMA_PATH}`,
  title: 'Advice Studio advice set (advice-set@1)',
  additionalProperties: false,
})

export type AdviceSetDocument = Static<typeof AdviceSetDocument>
export type PortableRule = Static<typeof Rule>
export type PortableEntry = Static<typeof DictionaryEntry>
export type PortableScenario = Static<typeof Scenario>
export type PortableKeywordMap = Static<typeof KeywordMap>
export type PortableExternalApi = Static<typeof ExternalApi>
export type PortableSupplement = Static<typeof Supplement>

/** The document as text: two-space indentation and a final newline; keys in the order the exporter wrote them. */
export function documentText(document: AdviceSetDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`
}

/**
 * The JSON Schema of the format, as served and as kept in the repository. TypeBox writes the recursive node type as a
 * local `$defs` with a bare `$ref: "Node"`, which a validator elsewhere would resolve against the schema's URL; the
 * definitions move to the root and every reference points there (`#/$defs/Node`).
 */
export function formatJsonSchema(): string {
  const defs: Record<string, unknown> = {}
  const hoist = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(hoist)
    if (value === null || typeof value !== 'object') return value
    const { $defs, $ref, ...rest } = value as Record<string, unknown>
    if ($defs && typeof $defs === 'object') {
      // A definition keeps no `$id` of its own: that would make it a new base for the references inside it.
      for (const [name, def] of Object.entries($defs)) defs[name] = hoist({ ...(def as object), $id: undefined })
    }
    const out: Record<string, unknown> = {}
    if (typeof $ref === 'string') out.$ref = $ref.startsWith('#') ? $ref : `#/$defs/${$ref}`
    if ($defs && typeof $ref === 'string') return out
    for (const [key, v] of Object.entries(rest)) if (v !== undefined) out[key] = hoist(v)
    return out
  }
  const schema = hoist(AdviceSetDocument) as Record<string, unknown>
  return `${JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...schema, $defs: defs }, null, 2)}\n`
}
