// /api/entity: SPEC §7 entity (the dictionary of variables and formulas) and entity/type.
import type { FastifyInstance } from 'fastify'
import {
  alternateEntity, copyEntity, createEntity, deleteEntity, expandFormula, getEntity, isUsed, listUses, parseAndMatch, parseContent,
  textSearch, typeahead, typeaheadClassic, updateEntity, type EntityInput,
} from '../../services/authoring/entities.ts'
import { ENTITY_TYPE_LIST } from '../../engine/index.ts'
import { NotFoundError } from '../../services/errors.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { idParamSchema, itemId } from './ids.ts'

const PARSE_MODES = ['condition', 'value', 'assignment', 'template'] as const
type ParseModeName = (typeof PARSE_MODES)[number]

const lookupQuery = {
  type: 'object', additionalProperties: false,
  properties: { q: { type: 'string', maxLength: 512 }, adviceSetId: { type: 'string', maxLength: 20 }, kind: { type: 'string', enum: ['variable', 'formula'] } },
} as const
const parseQuery = {
  type: 'object', required: ['content'], additionalProperties: false,
  properties: { content: { type: 'string', maxLength: 10_000 }, mode: { type: 'string', enum: [...PARSE_MODES] }, adviceSetId: { type: 'string', maxLength: 20 } },
} as const
const entityBody = {
  type: 'object', additionalProperties: false,
  properties: {
    entityTypeId: { type: 'integer' }, reservedName: { type: 'string' }, dataType: { type: ['string', 'null'] }, validOptions: { type: 'array', maxItems: 500 },
    isClosedSet: { type: 'boolean' }, displayFormat: { type: ['string', 'null'] }, defaultValue: {}, expression: { type: ['string', 'null'] },
    isConstant: { type: 'boolean' }, description: { type: 'string' }, adviceSetId: {},
  },
} as const

interface LookupQuery { q?: string; adviceSetId?: string; kind?: 'variable' | 'formula' }

function lookup(query: LookupQuery) {
  return {
    ...(query.adviceSetId !== undefined ? { adviceSetId: itemId(query.adviceSetId, 'adviceSetId') } : {}),
    ...(query.kind ? { kind: query.kind } : {}),
  }
}

export async function entityApi(app: FastifyInstance) {
  app.addHook('preHandler', requireUser)
  const deps = app.deps
  const paramId = (request: { params: unknown }) => itemId((request.params as { id: string }).id)

  app.get('/text-search', { schema: { querystring: lookupQuery } }, async (request) => {
    const query = request.query as LookupQuery
    return { data: await textSearch(deps, actorOf(request), { ...lookup(query), ...(query.q ? { text: query.q } : {}) }) }
  })
  app.get('/typeahead', { schema: { querystring: lookupQuery } }, async (request) => {
    const query = request.query as LookupQuery
    return { data: await typeahead(deps, actorOf(request), { ...lookup(query), prefix: query.q ?? '' }) }
  })
  app.get('/typeahead/classic', { schema: { querystring: lookupQuery } }, async (request) => {
    const query = request.query as LookupQuery
    return { data: await typeaheadClassic(deps, actorOf(request), { ...lookup(query), prefix: query.q ?? '' }) }
  })
  app.get('/parse', { schema: { querystring: parseQuery } }, async (request) => {
    const query = request.query as { content: string; mode?: ParseModeName }
    return { data: parseContent(query.content, query.mode ?? 'condition') }
  })
  app.get('/parse/match', { schema: { querystring: parseQuery } }, async (request) => {
    const query = request.query as { content: string; mode?: ParseModeName; adviceSetId?: string }
    const setId = query.adviceSetId === undefined ? undefined : itemId(query.adviceSetId, 'adviceSetId')
    return { data: await parseAndMatch(deps, actorOf(request), query.content, query.mode ?? 'condition', setId) }
  })

  app.get('/type/index', async () => ({ data: ENTITY_TYPE_LIST }))
  app.get('/type/typeahead', { schema: { querystring: { type: 'object', properties: { q: { type: 'string', maxLength: 100 } } } } }, async (request) => {
    const q = ((request.query as { q?: string }).q ?? '').trim().toLowerCase()
    return { data: ENTITY_TYPE_LIST.filter((type) => type.displayName.toLowerCase().includes(q) || type.name.toLowerCase().includes(q)) }
  })
  app.get('/type/:id', { schema: { params: idParamSchema } }, async (request) => {
    const type = ENTITY_TYPE_LIST.find((t) => t.id === paramId(request))
    if (!type) throw new NotFoundError('No entity type with this id')
    return { data: type }
  })

  app.post('/', { schema: { body: { ...entityBody, required: ['reservedName'] } } }, async (request, reply) => {
    reply.code(201)
    return { data: await createEntity(deps, actorOf(request), request.body as EntityInput) }
  })
  app.get('/:id', { schema: { params: idParamSchema } }, async (request) => ({ data: await getEntity(deps, actorOf(request), paramId(request)) }))
  app.patch('/:id', { schema: { params: idParamSchema, body: entityBody } }, async (request) => {
    return { data: await updateEntity(deps, actorOf(request), paramId(request), request.body as EntityInput) }
  })
  app.delete('/:id', { schema: { params: idParamSchema } }, async (request) => {
    await deleteEntity(deps, actorOf(request), paramId(request))
    return { data: { deleted: true } }
  })
  app.post('/:id/copy', { schema: { params: idParamSchema, body: { type: ['object', 'null'], additionalProperties: false, properties: { reservedName: { type: 'string' } } } } }, async (request, reply) => {
    reply.code(201)
    return { data: await copyEntity(deps, actorOf(request), paramId(request), (request.body ?? {}) as { reservedName?: string }) }
  })
  app.post('/:id/alternate', { schema: { params: idParamSchema, body: { type: ['object', 'null'], additionalProperties: false, properties: { expression: { type: 'string' } } } } }, async (request) => {
    return { data: await alternateEntity(deps, actorOf(request), paramId(request), (request.body ?? {}) as { expression?: string }) }
  })
  app.get('/:id/used', { schema: { params: idParamSchema } }, async (request) => ({ data: await isUsed(deps, actorOf(request), paramId(request)) }))
  app.get('/:id/list-uses', { schema: { params: idParamSchema } }, async (request) => ({ data: await listUses(deps, actorOf(request), paramId(request)) }))
  app.get('/:id/expand', { schema: { params: idParamSchema } }, async (request) => ({ data: await expandFormula(deps, actorOf(request), paramId(request)) }))
}
