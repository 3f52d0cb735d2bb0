// The rule debug pages (SPEC §2 Rule row: debug, debug/tree; page name rule-debug). Without JavaScript the form is a
// plain round trip: POST runs it (long list answers do not fit a URL), and the page links the same run as a GET
// permalink, which the tree fragment also takes. With JavaScript the rule-debug island runs it through
// /api/rule/debug and swaps in the results and the tree fragment. `?scenario={id}` (where a keyword map leads) fills
// the form with a scenario's answers and day, and runs them.
import type { FastifyInstance, FastifyReply } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox'
import { CONTENT_TYPES, type ContentType } from '../../engine/index.ts'
import type { Actor } from '../../services/context.ts'
import { NotFoundError, ValidationError } from '../../services/errors.ts'
import { answerText } from '../../services/scenarios/form.ts'
import { getScenario, type ScenarioItem } from '../../services/scenarios/scenarios.ts'
import {
  debugInputs, debugScope, inputFields, paintedTrees, runDebug, runView, type DebugField, type DebugRequest,
} from '../../services/authoring/rule-debug-page.ts'
import { canWriteOwned } from '../../services/accounts/visibility.ts'
import { MAX_NOT_GIVEN_SHOWN } from '../../services/authoring/not-given-view.ts'
import { itemId } from '../api/ids.ts'
import { dateFormatter } from '../format.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { FormBody, IdParams, IdString, StringEnum } from '../schemas.ts'

/** Answers travel as `input.<Variable>`, so they can never collide with the form's own fields. */
const INPUT_PREFIX = 'input.'

const DebugQuery = Type.Object({
  ruleId: Type.Optional(IdString),
  contentType: Type.Optional(StringEnum(CONTENT_TYPES)),
  now: Type.Optional(Type.String({ maxLength: 40 })),
  run: Type.Optional(Type.String({ maxLength: 5 })),
  scenario: Type.Optional(IdString),
  why: Type.Optional(Type.String({ maxLength: 40 })),
}, { additionalProperties: Type.String({ maxLength: 100_000 }) })

const route = { preHandler: requireUser, schema: { params: IdParams, querystring: DebugQuery } }

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
  const contentType = CONTENT_TYPES.find((type) => type === raw)
  if (contentType) return contentType
  throw new ValidationError('contentType', `contentType: must be one of ${CONTENT_TYPES.join(', ')}.`)
}

function text(raw: unknown): string {
  if (Array.isArray(raw)) return raw.map(String).join('\n')
  return raw === undefined || raw === null ? '' : String(raw)
}

function debugRequestOf(params: Static<typeof IdParams>, source: Fields): DebugRequest {
  const values: Record<string, string> = {}
  for (const [key, value] of Object.entries(source)) {
    if (key.startsWith(INPUT_PREFIX)) values[key.slice(INPUT_PREFIX.length)] = text(value)
  }
  const ruleId = ruleIdOf(source.ruleId)
  const why = text(source.why)
  return {
    adviceSetId: itemId(params.id),
    ...(ruleId === undefined ? {} : { ruleId }),
    ...(why ? { why } : {}),
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

/**
 * "Save as scenario": the scenario form prefilled with a run's answers (and its day, when it has one), which fills the
 * expected outcome from a run of them. Only for those who may write the set's scenarios.
 */
function saveScenarioHref(newScenario: string, inputs: Record<string, unknown>, now: string): string {
  const query = new URLSearchParams({ inputs: JSON.stringify(inputs) })
  if (/^\d{4}-\d{2}-\d{2}$/.test(now)) query.set('runAsOf', now)
  return `${newScenario}?${query.toString()}`
}

/** The scenario whose answers the page opens with, when it is one of the set's. */
async function scenarioOfSet(app: FastifyInstance, actor: Actor, adviceSetId: number, raw: string | undefined): Promise<ScenarioItem | null> {
  if (raw === undefined) return null
  const scenario = await getScenario(app.deps, actor, itemId(raw, 'scenario'))
  if (scenario.adviceSetId !== adviceSetId) throw new NotFoundError('No advice scenario with this id in this advice set')
  return scenario
}

async function debugPage(app: FastifyInstance, reply: FastifyReply, actor: Actor, request: DebugRequest, run: boolean, scenario: ScenarioItem | null = null) {
  const scope = await debugScope(app.deps, actor, request.adviceSetId, request.ruleId)
  const fields = inputFields(scope)
  const debug: DebugRequest = scenario ? {
    ...request,
    values: Object.fromEntries(fields.filter((f) => scenario.inputs[f.variable] !== undefined).map((f) => [f.variable, answerText(f, scenario.inputs[f.variable])])),
    now: scenario.runAsOf ?? '',
  } : request
  const output = run || scenario ? await runDebug(app.deps, scope, fields, debug) : null
  const base = `/adviceset/${scope.set.id}/rule/debug`
  const setName = scope.set.nameAlt || scope.set.name
  const newScenario = canWriteOwned(actor, scope.set.ownerId) ? `/adviceset/${scope.set.id}/advicescenario/new` : null
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
    saveScenario: output && newScenario ? saveScenarioHref(newScenario, debugInputs(fields, debug.values), debug.now.trim()) : null,
    run: output ? runView(output.result, debug.contentType, {
      entries: output.notGiven,
      links: {
        run: (answers) => `${base}?${runQuery({ ...debug, values: answers }, fields)}`,
        ask: (nodeId) => `${base}?${runQuery(debug, fields)}&why=${encodeURIComponent(nodeId)}#not-given-${nodeId}`,
      },
    }) : null,
    tree: paintedTrees(scope, output),
    maxNotGivenShown: MAX_NOT_GIVEN_SHOWN,
    islandProps: {
      adviceSetId: scope.set.id, ruleId: scope.rule?.id ?? null, base, fields, values: debug.values,
      contentType: debug.contentType, contentTypes: CONTENT_TYPES, now: debug.now, result: output?.result ?? null, formulas: output?.formulas ?? null, notGiven: output?.notGiven ?? null, newScenario,
    },
    currentAdviceSet: { id: scope.set.id, name: setName, ownerId: scope.set.ownerId },
    currentRule: scope.rule,
    scenario: scenario ? { id: scenario.id, name: scenario.name, href: `/adviceset/${scope.set.id}/advicescenario/${scenario.id}/show` } : null,
  })
}

export const ruleDebugPages: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/adviceset/:id/rule/debug', route, async (request, reply) => {
    const actor = actorOf(request)
    const debug = debugRequestOf(request.params, request.query)
    return debugPage(app, reply, actor, debug, request.query.run !== undefined, await scenarioOfSet(app, actor, debug.adviceSetId, request.query.scenario))
  })

  app.post('/adviceset/:id/rule/debug', { preHandler: requireUser, schema: { params: IdParams, body: FormBody } }, async (request, reply) =>
    debugPage(app, reply, actorOf(request), debugRequestOf(request.params, request.body ?? {}), true))

  app.get('/adviceset/:id/rule/debug/tree', route, async (request, reply) => {
    const actor = actorOf(request)
    const query = request.query
    const debug = debugRequestOf(request.params, query)
    const scope = await debugScope(app.deps, actor, debug.adviceSetId, debug.ruleId)
    const output = query.run === undefined ? null : await runDebug(app.deps, scope, inputFields(scope), debug)
    const html = await reply.viewAsync('rule/_debug-tree', { tree: paintedTrees(scope, output), formatDate: dateFormatter(request.user?.preferences.tz) })
    reply.type('text/html; charset=utf-8')
    return html
  })
}
