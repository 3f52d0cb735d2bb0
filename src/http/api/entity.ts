// /api/entity: SPEC §7 entity (the dictionary of variables and formulas) and entity/type.
import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox'
import {
  alternateEntity, copyEntity, createEntity, deleteEntity, expandFormula, getEntity, listUses, parseAndMatch, parseContent,
  textSearch, typeahead, typeaheadClassic, updateEntity,
} from '../../services/authoring/entities.ts'
import { entryUsage } from '../../services/authoring/dictionary-page.ts'
import { ENTITY_TYPE_LIST } from '../../engine/index.ts'
import { NotFoundError, ValidationError } from '../../services/errors.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { AnyId, IdParams, IdString, OrNull, StringEnum } from '../schemas.ts'
import { itemId } from './ids.ts'
import { forgetDecisionSettingsAfterWrites } from '../decision-settings.ts'

const LookupQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 512 })), adviceSetId: Type.Optional(IdString), kind: Type.Optional(StringEnum(['variable', 'formula'])),
}, { additionalProperties: false })
const ParseQuery = Type.Object({
  content: Type.String({ maxLength: 10_000 }), mode: Type.Optional(StringEnum(['condition', 'value', 'assignment', 'template'])), adviceSetId: Type.Optional(IdString),
}, { additionalProperties: false })
const entityFields = {
  entityTypeId: Type.Optional(Type.Integer()), reservedName: Type.Optional(Type.String()), dataType: Type.Optional(OrNull(Type.String())),
  validOptions: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 500 })), isClosedSet: Type.Optional(Type.Boolean()),
  displayFormat: Type.Optional(OrNull(Type.String())), defaultValue: Type.Optional(Type.Unknown()), expression: Type.Optional(OrNull(Type.String())),
  isConstant: Type.Optional(Type.Boolean()), personal: Type.Optional(Type.Boolean()), description: Type.Optional(Type.String()), adviceSetId: Type.Optional(AnyId),
}

/** A page of uses: the first `USES_PAGE` unless `limit` says otherwise, and after the use `after` names. */
const USES_PAGE = 200
const UsesQuery = Type.Object({
  after: Type.Optional(Type.String({ maxLength: 40 })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
}, { additionalProperties: false })

/** `rulenode:123` or `entity:45`: the type and id of the last use shown, as the answer's `next` gives it. */
function useCursor(raw: string | undefined) {
  if (raw === undefined) return undefined
  const match = /^(rulenode|entity):([1-9]\d{0,14})$/.exec(raw)
  if (!match) throw new ValidationError('after', 'after: give the type and id of the last use shown, as rulenode:123 or entity:45 (the answer’s next has it).')
  return { type: match[1] === 'entity' ? 'entity' as const : 'rulenode' as const, id: Number(match[2]) }
}

function lookup(query: Static<typeof LookupQuery>) {
  return {
    ...(query.adviceSetId !== undefined ? { adviceSetId: itemId(query.adviceSetId, 'adviceSetId') } : {}),
    ...(query.kind ? { kind: query.kind } : {}),
  }
}

export const entityApi: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('preHandler', requireUser)
  // A personal flag set or cleared here counts from the Advice API's next answer on.
  forgetDecisionSettingsAfterWrites(app)
  const deps = app.deps

  app.get('/text-search', { schema: { querystring: LookupQuery } }, async (request) => {
    const query = request.query
    return { data: await textSearch(deps, actorOf(request), { ...lookup(query), ...(query.q ? { text: query.q } : {}) }) }
  })
  app.get('/typeahead', { schema: { querystring: LookupQuery } }, async (request) => {
    const query = request.query
    return { data: await typeahead(deps, actorOf(request), { ...lookup(query), prefix: query.q ?? '' }) }
  })
  app.get('/typeahead/classic', { schema: { querystring: LookupQuery } }, async (request) => {
    const query = request.query
    return { data: await typeaheadClassic(deps, actorOf(request), { ...lookup(query), prefix: query.q ?? '' }) }
  })
  app.get('/parse', { schema: { querystring: ParseQuery } }, async (request) => {
    const query = request.query
    return { data: parseContent(query.content, query.mode ?? 'condition') }
  })
  app.get('/parse/match', { schema: { querystring: ParseQuery } }, async (request) => {
    const query = request.query
    const setId = query.adviceSetId === undefined ? undefined : itemId(query.adviceSetId, 'adviceSetId')
    return { data: await parseAndMatch(deps, actorOf(request), query.content, query.mode ?? 'condition', setId) }
  })

  app.get('/type/index', async () => ({ data: ENTITY_TYPE_LIST }))
  app.get('/type/typeahead', { schema: { querystring: Type.Object({ q: Type.Optional(Type.String({ maxLength: 100 })) }) } }, async (request) => {
    const q = (request.query.q ?? '').trim().toLowerCase()
    return { data: ENTITY_TYPE_LIST.filter((type) => type.displayName.toLowerCase().includes(q) || type.name.toLowerCase().includes(q)) }
  })
  app.get('/type/:id', { schema: { params: IdParams } }, async (request) => {
    const type = ENTITY_TYPE_LIST.find((t) => t.id === itemId(request.params.id))
    if (!type) throw new NotFoundError('No entity type with this id')
    return { data: type }
  })

  app.post('/', {
    schema: { body: Type.Object({ ...entityFields, reservedName: Type.String() }, { additionalProperties: false }) },
  }, async (request, reply) => {
    reply.code(201)
    return { data: await createEntity(deps, actorOf(request), request.body) }
  })
  app.get('/:id', { schema: { params: IdParams } }, async (request) => ({ data: await getEntity(deps, actorOf(request), itemId(request.params.id)) }))
  app.patch('/:id', { schema: { params: IdParams, body: Type.Object(entityFields, { additionalProperties: false }) } }, async (request) => {
    return { data: await updateEntity(deps, actorOf(request), itemId(request.params.id), request.body) }
  })
  app.delete('/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteEntity(deps, actorOf(request), itemId(request.params.id))
    return { data: { deleted: true } }
  })
  app.post('/:id/copy', {
    schema: { params: IdParams, body: OrNull(Type.Object({ reservedName: Type.Optional(Type.String()) }, { additionalProperties: false })) },
  }, async (request, reply) => {
    reply.code(201)
    return { data: await copyEntity(deps, actorOf(request), itemId(request.params.id), request.body ?? {}) }
  })
  app.post('/:id/alternate', {
    schema: { params: IdParams, body: OrNull(Type.Object({ expression: Type.Optional(Type.String()) }, { additionalProperties: false })) },
  }, async (request) => {
    return { data: await alternateEntity(deps, actorOf(request), itemId(request.params.id), request.body ?? {}) }
  })
  app.get('/:id/used', { schema: { params: IdParams } }, async (request) => ({ data: await entryUsage(deps, actorOf(request), itemId(request.params.id)) }))
  app.get('/:id/list-uses', { schema: { params: IdParams, querystring: UsesQuery } }, async (request) => {
    const after = useCursor(request.query.after)
    const page = await listUses(deps, actorOf(request), itemId(request.params.id), { limit: request.query.limit ?? USES_PAGE, ...(after ? { after } : {}) })
    return { data: page.uses, next: page.next && `${page.next.type}:${page.next.id}` }
  })
  app.get('/:id/expand', { schema: { params: IdParams } }, async (request) => ({ data: await expandFormula(deps, actorOf(request), itemId(request.params.id)) }))
}
