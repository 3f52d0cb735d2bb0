// The rule debug pages (SPEC §2 Rule row: debug, debug/tree; page name rule-debug). Without JavaScript the form is a
// plain round trip: POST runs it (long list answers do not fit a URL), and the page links the same run as a GET
// permalink, which the tree fragment also takes. With JavaScript the rule-debug island runs it through
// /api/rule/debug and swaps in the results and the tree fragment.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { CONTENT_TYPES, type ContentType } from '../../engine/index.ts'
import { ValidationError } from '../../services/errors.ts'
import {
  debugScope, inputFields, paintedTrees, runDebug, runView, type DebugField, type DebugRequest,
} from '../../services/authoring/rule-debug-page.ts'
import { idParamSchema, itemId } from '../api/ids.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'

/** Answers travel as `input.<Variable>`, so they can never collide with the form's own fields. */
const INPUT_PREFIX = 'input.'

const debugQuery = {
  type: 'object',
  properties: {
    ruleId: { type: 'string', maxLength: 20 },
    contentType: { type: 'string', enum: [...CONTENT_TYPES] },
    now: { type: 'string', maxLength: 40 },
    run: { type: 'string', maxLength: 5 },
  },
  additionalProperties: { type: 'string', maxLength: 100_000 },
} as const

const route = { preHandler: requireUser, schema: { params: idParamSchema, querystring: debugQuery } }

type Fields = Record<string, unknown>

function ruleIdOf(raw: unknown): number | undefined {
  if (raw === undefined || raw === '') return undefined
  try {
    return itemId(raw, 'ruleId')
  } catch (error) {
    if (error instanceof ValidationError) throw new ValidationError('ruleId', `ruleId: ${error.message}`)
    throw error
  }
}

function contentTypeOf(raw: unknown): ContentType {
  if (raw === undefined || raw === '') return 'text'
  if (typeof raw === 'string' && (CONTENT_TYPES as readonly string[]).includes(raw)) return raw as ContentType
  throw new ValidationError('contentType', `contentType: must be one of ${CONTENT_TYPES.join(', ')}.`)
}

function text(raw: unknown): string {
  if (Array.isArray(raw)) return raw.map(String).join('\n')
  return raw === undefined || raw === null ? '' : String(raw)
}

function debugRequestOf(request: FastifyRequest, source: Fields): DebugRequest {
  const values: Record<string, string> = {}
  for (const [key, value] of Object.entries(source)) {
    if (key.startsWith(INPUT_PREFIX)) values[key.slice(INPUT_PREFIX.length)] = text(value)
  }
  const ruleId = ruleIdOf(source.ruleId)
  return {
    adviceSetId: itemId((request.params as { id: string }).id),
    ...(ruleId === undefined ? {} : { ruleId }),
    values, contentType: contentTypeOf(source.contentType), now: text(source.now),
  }
}

/** The GET form of a run: the page's permalink and the tree fragment's query. */
function runQuery(request: DebugRequest, fields: DebugField[]): string {
  const query = new URLSearchParams()
  if (request.ruleId !== undefined) query.set('ruleId', String(request.ruleId))
  for (const field of fields) {
    const value = request.values[field.variable]
    if (value !== undefined && value !== '') query.set(INPUT_PREFIX + field.variable, value)
  }
  if (request.now) query.set('now', request.now)
  if (request.contentType !== 'text') query.set('contentType', request.contentType)
  query.set('run', '1')
  return query.toString()
}

async function debugPage(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, source: Fields, run: boolean) {
  const actor = actorOf(request)
  const debug = debugRequestOf(request, source)
  const scope = await debugScope(app.deps, actor, debug.adviceSetId, debug.ruleId)
  const fields = inputFields(scope)
  const output = run ? runDebug(scope, fields, debug) : null
  const base = `/adviceset/${scope.set.id}/rule/debug`
  const setName = scope.set.nameAlt || scope.set.name
  return reply.page('rule/debug', {
    title: `Debug · ${scope.rule?.name ?? setName}`,
    set: { id: scope.set.id, name: setName },
    rule: scope.rule,
    rules: scope.rules,
    fields,
    values: debug.values,
    contentType: debug.contentType,
    contentTypes: CONTENT_TYPES,
    now: debug.now,
    base,
    permalink: output ? `${base}?${runQuery(debug, fields)}` : null,
    run: output ? runView(output.result, debug.contentType) : null,
    tree: paintedTrees(scope, output),
    islandProps: {
      adviceSetId: scope.set.id, ruleId: scope.rule?.id ?? null, base, fields, values: debug.values,
      contentType: debug.contentType, contentTypes: CONTENT_TYPES, now: debug.now, result: output?.result ?? null,
    },
    currentAdviceSet: { id: scope.set.id, name: setName, ownerId: scope.set.ownerId },
    currentRule: scope.rule,
  })
}

export async function ruleDebugPages(app: FastifyInstance) {
  app.get('/adviceset/:id/rule/debug', route, async (request, reply) => {
    const query = request.query as Fields
    return debugPage(app, request, reply, query, query.run !== undefined)
  })

  app.post('/adviceset/:id/rule/debug', { preHandler: requireUser, schema: { params: idParamSchema } }, async (request, reply) =>
    debugPage(app, request, reply, (request.body ?? {}) as Fields, true))

  app.get('/adviceset/:id/rule/debug/tree', route, async (request, reply) => {
    const actor = actorOf(request)
    const query = request.query as Fields
    const debug = debugRequestOf(request, query)
    const scope = await debugScope(app.deps, actor, debug.adviceSetId, debug.ruleId)
    const output = query.run === undefined ? null : runDebug(scope, inputFields(scope), debug)
    const html = await reply.viewAsync('rule/_debug-tree', { tree: paintedTrees(scope, output) })
    reply.type('text/html; charset=utf-8')
    return html
  })
}
