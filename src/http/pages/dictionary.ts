// The dictionary pages (SPEC §2 Dictionary row): /admin/dictionary, the owner's variables and formulas with filters,
// and /admin/dictionary/list, the full sortable, paged table with every use linked. Any signed-in user may open
// them; they show what the user can read (the own owner's entries and the provider's).
import type { FastifyInstance } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox'
import { ENTITY_TYPES } from '../../engine/index.ts'
import type { Actor } from '../../services/context.ts'
import {
  DATA_TYPE_CHOICES, DICTIONARY_SORTS, dictionaryChoices, listDictionary, pageOfDictionary, type DictionaryFilters, type DictionarySort,
} from '../../services/authoring/dictionary-page.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { StringEnum } from '../schemas.ts'
import { dropEmptyQueryValues } from './library.ts'

const QUERY_KEYS = ['kind', 'set', 'q', 'sort', 'dir', 'page'] as const
const DictionaryQuery = Type.Object({
  kind: Type.Optional(StringEnum(['variable', 'formula'])), set: Type.Optional(Type.Integer({ minimum: 1 })), q: Type.Optional(Type.String({ maxLength: 512 })),
  sort: Type.Optional(StringEnum(DICTIONARY_SORTS)), dir: Type.Optional(StringEnum(['asc', 'desc'])), page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
})
type Query = Static<typeof DictionaryQuery>

function filtersOf(query: Query): DictionaryFilters {
  return { ...(query.kind ? { kind: query.kind } : {}), ...(query.set ? { adviceSetId: query.set } : {}), ...(query.q ? { text: query.q } : {}) }
}

/** A link to `base` with the current query, some keys replaced (undefined removes a key). */
function linkWith(base: string, query: Query, overrides: Partial<Record<(typeof QUERY_KEYS)[number], unknown>> = {}): string {
  const params = new URLSearchParams()
  for (const key of QUERY_KEYS) {
    const value = key in overrides ? overrides[key] : query[key]
    if (value !== undefined && value !== '') params.set(key, String(value))
  }
  const text = params.toString()
  return text ? `${base}?${text}` : base
}

async function commonData(app: FastifyInstance, actor: Actor, query: Query) {
  // The set filtered by is always offered, chosen: past the first 1,000 by name, applying the filters again lost it.
  const choices = await dictionaryChoices(app.deps, actor, actor.ownerId, query.set ?? null)
  return {
    filters: query, filterSets: choices.filterSets, ownSets: choices.ownSets, canCreate: choices.canCreate, dataTypes: DATA_TYPE_CHOICES,
    hasFilters: Boolean(query.kind || query.set || query.q),
    kinds: [{ value: 'variable', label: ENTITY_TYPES.variable.plural }, { value: 'formula', label: ENTITY_TYPES.formula.plural }],
  }
}

export const dictionaryPages: FastifyPluginAsyncTypebox = async (app) => {
  const route = { preHandler: requireUser, preValidation: dropEmptyQueryValues, schema: { querystring: DictionaryQuery } }

  app.get('/admin/dictionary', route, async (request, reply) => {
    const query = request.query
    const actor = actorOf(request)
    const [common, entries] = await Promise.all([commonData(app, actor, query), listDictionary(app.deps, actor, filtersOf(query))])
    return reply.page('dictionary/index', {
      title: 'Dictionary', ...common, entries, base: '/admin/dictionary', listUrl: linkWith('/admin/dictionary/list', query, { sort: undefined, dir: undefined, page: undefined }),
    })
  })

  app.get('/admin/dictionary/list', route, async (request, reply) => {
    const query = request.query
    const actor = actorOf(request)
    const sort = query.sort ?? 'name'
    const [common, result] = await Promise.all([
      commonData(app, actor, query),
      pageOfDictionary(app.deps, actor, { ...filtersOf(query), sort, desc: query.dir === 'desc', ...(query.page ? { page: query.page } : {}) }),
    ])
    return reply.page('dictionary/list', {
      title: 'Dictionary: full list', ...common, ...result, sort, dir: query.dir ?? 'asc', base: '/admin/dictionary/list',
      url: (overrides: Record<string, unknown> = {}) => linkWith('/admin/dictionary/list', query, overrides),
      sortUrl: (key: DictionarySort) => linkWith('/admin/dictionary/list', query, { sort: key, dir: sort === key && query.dir !== 'desc' ? 'desc' : undefined, page: undefined }),
    })
  })
}
