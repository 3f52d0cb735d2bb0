// Keyword map admin pages (SPEC §2 Admin keyword map row; page name keyword-map; admins only, SPEC §6): the list with
// a form for a new map, and one map's page to change, delete or restore it. Plain forms: they work without JavaScript.
import type { FastifyRequest } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  canManageKeywordMaps, createKeywordMap, deleteKeywordMap, getKeywordMap, keywordMapChoices, keywordMapPage, restoreKeywordMap,
  updateKeywordMapFor, type KeywordMapView,
} from '../../services/library/keyword-maps.ts'
import { isProviderAdmin } from '../../services/context.ts'
import { ForbiddenError, ValidationError } from '../../services/errors.ts'
import { itemId } from '../api/ids.ts'
import { dateFormatter } from '../format.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { FormBody, IdString } from '../schemas.ts'
import { findSetsIn, keptValues, renderFormError } from './forms.ts'
import { chosenSetIds } from '../../services/library/set-choices.ts'

const MapParams = Type.Object({ keywordMapId: IdString })
const IndexQuery = Type.Object({ q: Type.Optional(Type.String({ maxLength: 512 })), deleted: Type.Optional(IdString), after: Type.Optional(IdString) })

/** The pages are the admin area's (SPEC §6): other roles get 403 before anything is read. */
function assertAdmin(request: FastifyRequest): void {
  if (!canManageKeywordMaps(actorOf(request))) throw new ForbiddenError('Only admins manage keyword maps: ask an admin of your team.')
}

function valuesOf(map: KeywordMapView): Record<string, unknown> {
  return { name: map.name, phrases: map.phrases.join('\n'), adviceSetId: String(map.adviceSet.id), scenarioId: map.scenario ? String(map.scenario.id) : '' }
}

export const keywordMapPages: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps
  const mapIdOf = (params: { keywordMapId: string }) => itemId(params.keywordMapId, 'keywordMapId')

  /** The list page's data: the maps (matching `q`), the new map's form, and the map just deleted (for Undo). */
  async function indexData(request: FastifyRequest, extra: { q?: string; deleted?: number; after?: number; values?: Record<string, unknown>; find?: string } = {}) {
    const actor = actorOf(request)
    const [{ maps, nextAfter }, choices] = await Promise.all([
      keywordMapPage(deps, actor, { text: extra.q, afterId: extra.after }),
      keywordMapChoices(deps, actor, { chosen: chosenSetIds(extra.values?.adviceSetId), find: extra.find }),
    ])
    const deleted = extra.deleted === undefined ? null : await getKeywordMap(deps, actor, extra.deleted, { includeDeleted: true }).catch(() => null)
    return {
      title: 'Keyword maps', maps, choices, q: extra.q ?? '', paged: extra.after !== undefined,
      nextPage: nextAfter === null ? null : `/admin/keywordMap?${new URLSearchParams({ ...(extra.q ? { q: extra.q } : {}), after: String(nextAfter) }).toString()}`,
      values: extra.values ?? { name: '', phrases: '', adviceSetId: '', scenarioId: '' },
      deleted: deleted?.deleted ? deleted : null, providerAdmin: isProviderAdmin(actor), formatDate: dateFormatter(request.user!.preferences.tz),
    }
  }

  async function editData(request: FastifyRequest, map: KeywordMapView, values: Record<string, unknown> = valuesOf(map), find?: string) {
    return {
      title: `Keyword map ${map.name}`, map, values, choices: await keywordMapChoices(deps, actorOf(request), { chosen: chosenSetIds(values.adviceSetId), find }),
      formatDate: dateFormatter(request.user!.preferences.tz),
    }
  }

  app.get('/admin/keywordMap', { preHandler: requireUser, schema: { querystring: IndexQuery } }, async (request, reply) => {
    assertAdmin(request)
    const query = request.query
    return reply.page('admin/keywordmap/index', await indexData(request, {
      q: query.q, ...(query.deleted !== undefined ? { deleted: itemId(query.deleted, 'deleted') } : {}), ...(query.after !== undefined ? { after: itemId(query.after, 'after') } : {}),
    }))
  })

  app.post('/admin/keywordMap', { preHandler: requireUser, schema: { body: FormBody } }, async (request, reply) => {
    assertAdmin(request)
    const body = request.body ?? {}
    const find = findSetsIn(body)
    if (find !== null) return reply.page('admin/keywordmap/index', await indexData(request, { values: keptValues(body), find }))
    try {
      const map = await createKeywordMap(deps, actorOf(request), body)
      reply.flash({ type: 'info', text: `Keyword map “${map.name}” saved. Searching for one of its phrases now shows its target first.` })
      return reply.redirect('/admin/keywordMap', 303)
    } catch (error) {
      return renderFormError(reply, error, 'admin/keywordmap/index', await indexData(request, { values: keptValues(body) }))
    }
  })

  app.get('/admin/keywordMap/:keywordMapId', { preHandler: requireUser, schema: { params: MapParams } }, async (request, reply) => {
    assertAdmin(request)
    return reply.page('admin/keywordmap/edit', await editData(request, await getKeywordMap(deps, actorOf(request), mapIdOf(request.params), { includeDeleted: true })))
  })

  app.post('/admin/keywordMap/:keywordMapId', { preHandler: requireUser, schema: { params: MapParams, body: FormBody } }, async (request, reply) => {
    assertAdmin(request)
    const body = request.body ?? {}
    const map = await getKeywordMap(deps, actorOf(request), mapIdOf(request.params))
    const find = findSetsIn(body)
    if (find !== null) return reply.page('admin/keywordmap/edit', await editData(request, map, { ...valuesOf(map), ...keptValues(body) }, find))
    try {
      const saved = await updateKeywordMapFor(deps, actorOf(request), map.id, {
        name: body.name, phrases: body.phrases, adviceSetId: body.adviceSetId, scenarioId: body.scenarioId ?? '',
      })
      reply.flash({ type: 'info', text: `Keyword map “${saved.name}” saved.` })
      return reply.redirect(`/admin/keywordMap/${saved.id}`, 303)
    } catch (error) {
      return renderFormError(reply, error, 'admin/keywordmap/edit', await editData(request, map, { ...valuesOf(map), ...keptValues(body) }))
    }
  })

  app.post('/admin/keywordMap/:keywordMapId/delete', { preHandler: requireUser, schema: { params: MapParams } }, async (request, reply) => {
    assertAdmin(request)
    const id = mapIdOf(request.params)
    await deleteKeywordMap(deps, actorOf(request), id)
    return reply.redirect(`/admin/keywordMap?deleted=${id}`, 303)
  })

  app.post('/admin/keywordMap/:keywordMapId/restore', { preHandler: requireUser, schema: { params: MapParams } }, async (request, reply) => {
    assertAdmin(request)
    const id = mapIdOf(request.params)
    try {
      const map = await restoreKeywordMap(deps, actorOf(request), id)
      reply.flash({ type: 'info', text: `Keyword map “${map.name}” restored.` })
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error
      reply.flash({ type: 'error', heading: 'Not restored', text: error.message })
    }
    return reply.redirect(`/admin/keywordMap/${id}`, 303)
  })
}
