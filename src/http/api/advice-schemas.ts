// Schemas of the partner routes, in TypeBox: they validate requests, type the handlers' input, and @fastify/swagger
// turns them into the OpenAPI document at /api/docs. Responses are serialized by the handlers (their members vary
// with the content type and the fieldsets asked for), so the response schemas here document rather than filter:
// their members are all optional, as in the document before the routes were typed.
import { Type, type Static, type TProperties, type TSchema } from '@fastify/type-provider-typebox'
import { DATA_TYPES } from '../../engine/index.ts'
import { ADVICE_MEDIA_TYPES } from '../../services/delivery/media-types.ts'
import { FIELDSETS } from '../../services/delivery/fields.ts'
import { MARKDOWN_PREVIEW_LIMIT } from '../../services/delivery/markdown.ts'
import { AnyObject, StringEnum } from '../schemas.ts'

export const PARTNER_TAG = 'Advice API'
export const BEARER_SECURITY: Array<Record<string, string[]>> = [{ bearerAuth: [] }]
const KEY_OR_SESSION_SECURITY: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { sessionCookie: [] }]

/** A documented object whose members may each be absent. */
function Doc<T extends TProperties>(properties: T, options: Record<string, unknown> = {}) {
  return Type.Partial(Type.Object(properties), options)
}

/** OpenAPI 3.0's nullable: the schema as it is, with null allowed. */
function Nullable<T extends TSchema>(schema: T) {
  return Type.Unsafe<Static<T> | null>({ ...schema, nullable: true })
}

const Str = Type.String
const Int = Type.Integer

const errorShape = Type.Object({
  error: Type.Object(
    { status: Int(), name: Str(), message: Str(), field: Type.Optional(Str()) },
    { additionalProperties: true },
  ),
})

export const errorSchema = Type.Object(errorShape.properties, { description: 'Every error: the HTTP status, its name and a message; `field` names the parameter or input at fault.' })

function errorResponse(description: string) {
  return Type.Object(errorShape.properties, { description })
}

const errorResponses = {
  400: errorResponse('A parameter or an input is not valid; `error.field` names it.'),
  401: errorResponse('No API key, not a Bearer key, or a key that is unknown, malformed or deleted.'),
  404: errorResponse('No such advice set, nothing published to this key, or a set the key may not use.'),
  429: errorResponse('The key used up its requests for this minute; Retry-After says when to try again.'),
}

const contentBody = Type.Union([
  Str(),
  Doc({
    text: Str(),
    ranges: Type.Array(Doc({ start: Int(), length: Int(), kind: Str(), name: Str(), href: Str() })),
  }),
], { description: 'Rendered text: a string, or text with ranges for the attrstring content type.' })

const value = Type.Unknown({ description: 'A number, text, boolean, date (ISO 8601) or list.' })

const source = Doc({ id: Str(), name: Str(), uri: Str() })

const reasons = Type.Array(Doc({
  nodeId: Str(), ruleId: Str(),
  type: StringEnum(['condition', 'conditionAlways', 'ruleCall']),
  expression: Str({ description: 'The condition as written.' }),
  result: value,
  reads: Type.Array(Doc({
    kind: StringEnum(['variable', 'formula']), name: Str(), value, valueFormatted: Str(),
    from: Doc({
      kind: StringEnum(['answer', 'input', 'assignment', 'api', 'default', 'constant', 'system', 'formula', 'unset']),
      nodeId: Str({ description: 'The question, assignment or API Call that gave the value.' }), expression: Str(), apiId: Str(),
    }, { description: 'Where the value came from.' }),
  }), { description: 'The variables and formulas the condition read, with their values when it was decided.' }),
  calledRule: Doc({ id: Str(), name: Str() }),
}), { description: 'With explain=true: the steps from the rule\'s root to here, root first (conditions that held, Always nodes, the Rule Calls that ran the rule).' })

const adviceItem = Doc({
  nodeId: Str(), ruleId: Str(), headline: contentBody, text: contentBody,
  customHeadline: Str({ description: 'Headline_Custom, when it replaced the headline.' }),
  tags: Type.Array(Str()), sources: Type.Array(source), reasons,
})

const currentFocus = Doc({
  nodeId: Str(), ruleId: Str(),
  variable: Str({ description: 'Send the answer as an input of this name.' }),
  question: contentBody,
  inputType: StringEnum(DATA_TYPES, { description: 'How to ask: the variable\'s data type, freetext when it has none.' }),
  dataType: StringEnum(DATA_TYPES),
  placeholder: Str(), description: Str(),
  options: Type.Array(Str()),
  defaultValue: value,
  error: Doc({ code: Str(), message: Str() }),
  reasons,
}, { nullable: true, description: 'The next question to ask; null when the advice is complete.' })

const adviceSet = Doc({ id: Int(), name: Str(), nameAlt: Str(), description: Str(), version: Int({ description: 'The number of the version that answered.' }) })

export const adviceDataSchema = Doc({
  adviceSet,
  inputRequests: Type.Array(
    Doc({ nodeId: Str(), ruleId: Str(), variable: Str(), question: contentBody, value, valueFormatted: Str() }),
    { description: 'Questions answered so far, in the order they were asked.' },
  ),
  currentFocus,
  advice: Type.Array(adviceItem),
  assumptions: Type.Array(adviceItem),
  examples: Type.Array(adviceItem),
  variables: Type.Object({}, {
    description: 'Every variable holding a value at the end of the run, by name.',
    additionalProperties: Doc({ value, valueFormatted: Str(), dataType: Str(), isSystem: Type.Boolean(), isConstant: Type.Boolean() }),
  }),
  sources: Type.Array(source),
  errors: Type.Array(
    Doc({
      nodeId: Str(), ruleId: Str(), code: Str(), message: Str(), variable: Str(),
      cause: Doc({ code: Str(), message: Str() }),
    }),
    { description: 'Rules that could not finish (the others still ran): engine errors are reported here with HTTP 200.' },
  ),
})

/** The same document under each vendor media type (and plain JSON, which is the text type). */
function byMediaType(schema: TSchema) {
  return Object.fromEntries(['application/json', ...ADVICE_MEDIA_TYPES].map((type) => [type, { schema }]))
}

const AdviceParams = Type.Object({ adviceSetId: Int({ minimum: 1, maximum: 2147483647, description: 'The advice set.' }) })

const fieldsetParameters = Object.fromEntries(Object.entries(FIELDSETS).map(([type, fields]) => [
  `fields[${type}]`,
  Type.Optional(Str({ description: `Sparse fieldset of ${type}: a comma-separated list of ${fields.join(', ')}.` })),
]))

const AdviceQuery = Type.Object({
  ...fieldsetParameters,
  filter: Type.Optional(Str({ description: 'Comma-separated: variables (leave the variables out), variables:!system (leave system variables out), variables:!constant (leave constants out).' })),
  explain: Type.Optional(StringEnum(['true', 'false'], { description: 'true: each advice item and the focus carry `reasons`, the conditions that led to them with the values they read. The key must allow explanations (403 otherwise).' })),
}, { additionalProperties: true, description: 'Every other parameter is an answer, named by its variable (e.g. `Age=42`).' })

/** Every parameter of a legacy request is an answer. No properties: the document lists no fixed parameters. */
const LegacyQuery = Type.Object({}, { additionalProperties: true, description: 'Every parameter is an answer, named by its variable (e.g. `Age=42`).' })

const inputs = Type.Optional(AnyObject({ additionalProperties: true, description: 'Answers by variable name, e.g. { "Age": 42 }. They are added to those in the query.' }))

const InputsBody = Type.Object({ inputs }, { additionalProperties: false })

const AdviceBody = Type.Object({
  inputs,
  explain: Type.Optional(Type.Boolean({ description: 'As the query\'s explain; the body\'s wins when both are given.' })),
}, { additionalProperties: false })

/** What an advice or legacy handler reads; GET requests have no body. */
export interface AdviceRoute {
  Params: Static<typeof AdviceParams>
  Querystring: Static<typeof AdviceQuery> & Static<typeof LegacyQuery>
  Body: Static<typeof AdviceBody> | undefined
}

const description = 'Runs the version of the advice set this API key is served (production keys: the published version, or their ' +
  'audience\'s; preview keys: the preview version, else the published one) with the answers given, and returns what the ' +
  'engine found: the questions answered, the next question (`currentFocus`) and the advice so far. `Accept` picks how ' +
  `texts are rendered: ${ADVICE_MEDIA_TYPES.join(', ')}; application/json or none is text. The response's Content-Type ` +
  'is the vendor type chosen. Headers: X-Request-Id (echoes a sane incoming one), X-API-Version, X-Response-Date.'

export function adviceRouteSchema(method: 'GET' | 'POST') {
  return {
    tags: [PARTNER_TAG],
    summary: method === 'GET' ? 'Advice for the answers in the query' : 'Advice for the answers in the body',
    description,
    security: BEARER_SECURITY,
    params: AdviceParams,
    querystring: AdviceQuery,
    ...(method === 'POST' ? { body: AdviceBody } : {}),
    response: {
      200: { description: 'The run (engine errors are per-item, in `data.errors`).', content: byMediaType(Doc({ data: adviceDataSchema })) },
      406: errorResponse('Accept names none of the types above.'),
      ...errorResponses,
    },
  }
}

const legacyItem = Doc({
  type: StringEnum(['inputRequest', 'advice', 'currentFocus']),
  group: StringEnum(['advice', 'assumptions', 'examples']),
  ...adviceItem.properties,
  ...currentFocus.properties,
  value,
  valueFormatted: Str(),
}, { description: 'type inputRequest (an answered question), advice (with its group), or currentFocus (the question the run stopped at, last).' })

export function legacyRouteSchema(method: 'GET' | 'POST') {
  return {
    tags: [PARTNER_TAG],
    summary: 'Questions and advice as one flat list in evaluation order',
    description: 'The same run as /api/advice/{adviceSetId}, as one list of answered questions and advice in the order the run reached them, then the open question.',
    security: BEARER_SECURITY,
    params: AdviceParams,
    querystring: LegacyQuery,
    ...(method === 'POST' ? { body: InputsBody } : {}),
    response: {
      200: {
        description: 'The run as a list.',
        content: byMediaType(Doc({ data: Doc({ adviceSet, done: Type.Boolean(), items: Type.Array(legacyItem) }) })),
      },
      406: errorResponse('Accept names none of the advice types.'),
      ...errorResponses,
    },
  }
}

export const markdownPreviewSchema = {
  tags: [PARTNER_TAG],
  summary: 'Advice markdown rendered as sanitized html',
  description: 'With an API key, or signed in (then with the CSRF token). {{Variables}} and [[Formulas]] show as missing-value chips and are listed in `tags`.',
  security: KEY_OR_SESSION_SECURITY,
  body: Type.Object({
    markdown: Str({ maxLength: MARKDOWN_PREVIEW_LIMIT }),
    links: Type.Optional(Type.Boolean({ default: true, description: 'Keep links (false: htmlnolinks).' })),
  }, { additionalProperties: false }),
  response: {
    200: Doc({
      data: Doc({
        html: Str(),
        tags: Type.Array(Doc({ kind: StringEnum(['variable', 'formula']), name: Str() })),
      }),
    }, { description: 'The html.' }),
    400: errorResponses[400],
    401: errorResponses[401],
    429: errorResponses[429],
  },
}

export const dictionarySchema = {
  tags: [PARTNER_TAG],
  summary: 'The variables of the API key\'s owner',
  description: 'What a partner can send as inputs, with how each is typed and offered.',
  security: BEARER_SECURITY,
  response: {
    200: Doc({
      data: Type.Array(Doc({
        name: Str(), dataType: Type.Unsafe<string | null>({ type: 'string', nullable: true, enum: [...DATA_TYPES, null] }),
        validOptions: Type.Array(Str()), isClosedSet: Type.Boolean(),
        displayFormat: Nullable(Str()), description: Str(), isConstant: Type.Boolean(),
        adviceSetId: Nullable(Int()),
      })),
    }, { description: 'The variables, by name.' }),
    401: errorResponses[401],
    429: errorResponses[429],
  },
}
