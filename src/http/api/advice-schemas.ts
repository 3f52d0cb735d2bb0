// JSON schemas of the partner routes: they validate requests, and @fastify/swagger turns them into the OpenAPI
// document at /api/docs. Responses are serialized by the handlers (their members vary with the content type and
// the fieldsets asked for), so the response schemas here document rather than filter.
import { DATA_TYPES } from '../../engine/index.ts'
import { ADVICE_MEDIA_TYPES } from '../../services/delivery/media-types.ts'
import { FIELDSETS } from '../../services/delivery/fields.ts'
import { MARKDOWN_PREVIEW_LIMIT } from '../../services/delivery/markdown.ts'

export const PARTNER_TAG = 'Advice API'
export const BEARER_SECURITY = [{ bearerAuth: [] }] as const

const errorShape = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['status', 'name', 'message'],
      additionalProperties: true,
      properties: { status: { type: 'integer' }, name: { type: 'string' }, message: { type: 'string' }, field: { type: 'string' } },
    },
  },
} as const

export const errorSchema = { description: 'Every error: the HTTP status, its name and a message; `field` names the parameter or input at fault.', ...errorShape } as const

const errorResponses = {
  400: { description: 'A parameter or an input is not valid; `error.field` names it.', ...errorShape },
  401: { description: 'No API key, not a Bearer key, or a key that is unknown, malformed or deleted.', ...errorShape },
  404: { description: 'No such advice set, nothing published to this key, or a set the key may not use.', ...errorShape },
  429: { description: 'The key used up its requests for this minute; Retry-After says when to try again.', ...errorShape },
} as const

const contentBody = {
  description: 'Rendered text: a string, or text with ranges for the attrstring content type.',
  anyOf: [
    { type: 'string' },
    {
      type: 'object',
      properties: {
        text: { type: 'string' },
        ranges: {
          type: 'array',
          items: {
            type: 'object',
            properties: { start: { type: 'integer' }, length: { type: 'integer' }, kind: { type: 'string' }, name: { type: 'string' }, href: { type: 'string' } },
          },
        },
      },
    },
  ],
} as const

const value = { description: 'A number, text, boolean, date (ISO 8601) or list.' } as const

const source = { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, uri: { type: 'string' } } } as const

const adviceItem = {
  type: 'object',
  properties: {
    nodeId: { type: 'string' }, ruleId: { type: 'string' }, headline: contentBody, text: contentBody,
    customHeadline: { type: 'string', description: 'Headline_Custom, when it replaced the headline.' },
    tags: { type: 'array', items: { type: 'string' } }, sources: { type: 'array', items: source },
  },
} as const

const currentFocus = {
  type: 'object',
  nullable: true,
  description: 'The next question to ask; null when the advice is complete.',
  properties: {
    nodeId: { type: 'string' }, ruleId: { type: 'string' },
    variable: { type: 'string', description: 'Send the answer as an input of this name.' },
    question: contentBody,
    inputType: { type: 'string', enum: [...DATA_TYPES], description: 'How to ask: the variable\'s data type, freetext when it has none.' },
    dataType: { type: 'string', enum: [...DATA_TYPES] },
    placeholder: { type: 'string' }, description: { type: 'string' },
    options: { type: 'array', items: { type: 'string' } },
    defaultValue: value,
    error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } },
  },
} as const

export const adviceDataSchema = {
  type: 'object',
  properties: {
    adviceSet: {
      type: 'object',
      properties: { id: { type: 'integer' }, name: { type: 'string' }, nameAlt: { type: 'string' }, description: { type: 'string' }, version: { type: 'integer', description: 'The number of the version that answered.' } },
    },
    inputRequests: {
      type: 'array',
      description: 'Questions answered so far, in the order they were asked.',
      items: { type: 'object', properties: { nodeId: { type: 'string' }, ruleId: { type: 'string' }, variable: { type: 'string' }, question: contentBody, value, valueFormatted: { type: 'string' } } },
    },
    currentFocus,
    advice: { type: 'array', items: adviceItem },
    assumptions: { type: 'array', items: adviceItem },
    examples: { type: 'array', items: adviceItem },
    variables: {
      type: 'object',
      description: 'Every variable holding a value at the end of the run, by name.',
      additionalProperties: {
        type: 'object',
        properties: { value, valueFormatted: { type: 'string' }, dataType: { type: 'string' }, isSystem: { type: 'boolean' }, isConstant: { type: 'boolean' } },
      },
    },
    sources: { type: 'array', items: source },
    errors: {
      type: 'array',
      description: 'Rules that could not finish (the others still ran): engine errors are reported here with HTTP 200.',
      items: {
        type: 'object',
        properties: {
          nodeId: { type: 'string' }, ruleId: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' }, variable: { type: 'string' },
          cause: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } },
        },
      },
    },
  },
} as const

/** The same document under each vendor media type (and plain JSON, which is the text type). */
function byMediaType(schema: object) {
  return Object.fromEntries(['application/json', ...ADVICE_MEDIA_TYPES].map((type) => [type, { schema }]))
}

const paramsSchema = {
  type: 'object',
  required: ['adviceSetId'],
  properties: { adviceSetId: { type: 'integer', minimum: 1, maximum: 2147483647, description: 'The advice set.' } },
} as const

const fieldsetParameters = Object.fromEntries(Object.entries(FIELDSETS).map(([type, fields]) => [
  `fields[${type}]`,
  { type: 'string', description: `Sparse fieldset of ${type}: a comma-separated list of ${fields.join(', ')}.` },
]))

const querystringSchema = {
  type: 'object',
  additionalProperties: true,
  description: 'Every other parameter is an answer, named by its variable (e.g. `Age=42`).',
  properties: {
    ...fieldsetParameters,
    filter: { type: 'string', description: 'Comma-separated: variables (leave the variables out), variables:!system (leave system variables out), variables:!constant (leave constants out).' },
  },
} as const

const inputsBody = {
  type: 'object',
  additionalProperties: false,
  properties: { inputs: { type: 'object', additionalProperties: true, description: 'Answers by variable name, e.g. { "Age": 42 }. They are added to those in the query.' } },
} as const

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
    params: paramsSchema,
    querystring: querystringSchema,
    ...(method === 'POST' ? { body: inputsBody } : {}),
    response: {
      200: { description: 'The run (engine errors are per-item, in `data.errors`).', content: byMediaType({ type: 'object', properties: { data: adviceDataSchema } }) },
      406: { description: 'Accept names none of the types above.', ...errorShape },
      ...errorResponses,
    },
  }
}

const legacyItem = {
  type: 'object',
  description: 'type inputRequest (an answered question), advice (with its group), or currentFocus (the question the run stopped at, last).',
  properties: {
    type: { type: 'string', enum: ['inputRequest', 'advice', 'currentFocus'] },
    group: { type: 'string', enum: ['advice', 'assumptions', 'examples'] },
    ...adviceItem.properties,
    ...currentFocus.properties,
    value,
    valueFormatted: { type: 'string' },
  },
} as const

export function legacyRouteSchema(method: 'GET' | 'POST') {
  return {
    tags: [PARTNER_TAG],
    summary: 'Questions and advice as one flat list in evaluation order',
    description: 'The same run as /api/advice/{adviceSetId}, as one list of answered questions and advice in the order the run reached them, then the open question.',
    security: BEARER_SECURITY,
    params: paramsSchema,
    querystring: { type: 'object', additionalProperties: true },
    ...(method === 'POST' ? { body: inputsBody } : {}),
    response: {
      200: {
        description: 'The run as a list.',
        content: byMediaType({
          type: 'object',
          properties: {
            data: {
              type: 'object',
              properties: { adviceSet: adviceDataSchema.properties.adviceSet, done: { type: 'boolean' }, items: { type: 'array', items: legacyItem } },
            },
          },
        }),
      },
      406: { description: 'Accept names none of the advice types.', ...errorShape },
      ...errorResponses,
    },
  }
}

export const markdownPreviewSchema = {
  tags: [PARTNER_TAG],
  summary: 'Advice markdown rendered as sanitized html',
  description: 'With an API key, or signed in (then with the CSRF token). {{Variables}} and [[Formulas]] show as missing-value chips and are listed in `tags`.',
  security: [{ bearerAuth: [] }, { sessionCookie: [] }],
  body: {
    type: 'object',
    required: ['markdown'],
    additionalProperties: false,
    properties: { markdown: { type: 'string', maxLength: MARKDOWN_PREVIEW_LIMIT }, links: { type: 'boolean', default: true, description: 'Keep links (false: htmlnolinks).' } },
  },
  response: {
    200: {
      description: 'The html.',
      type: 'object',
      properties: {
        data: {
          type: 'object',
          properties: {
            html: { type: 'string' },
            tags: { type: 'array', items: { type: 'object', properties: { kind: { type: 'string', enum: ['variable', 'formula'] }, name: { type: 'string' } } } },
          },
        },
      },
    },
    400: errorResponses[400],
    401: errorResponses[401],
    429: errorResponses[429],
  },
} as const

export const dictionarySchema = {
  tags: [PARTNER_TAG],
  summary: 'The variables of the API key\'s owner',
  description: 'What a partner can send as inputs, with how each is typed and offered.',
  security: BEARER_SECURITY,
  response: {
    200: {
      description: 'The variables, by name.',
      type: 'object',
      properties: {
        data: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' }, dataType: { type: 'string', nullable: true, enum: [...DATA_TYPES, null] },
              validOptions: { type: 'array', items: { type: 'string' } }, isClosedSet: { type: 'boolean' },
              displayFormat: { type: 'string', nullable: true }, description: { type: 'string' }, isConstant: { type: 'boolean' },
              adviceSetId: { type: 'integer', nullable: true },
            },
          },
        },
      },
    },
    401: errorResponses[401],
    429: errorResponses[429],
  },
} as const
