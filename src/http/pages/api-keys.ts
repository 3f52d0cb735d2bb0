// Admin pages for API keys (SPEC §2 Admin API keys row): list, new → copy (the secret once), edit, rotate → copy, delete, usage.
import type { FastifyRequest } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox'
import {
  apiKeyFormChoices, createApiKeyFor, deleteApiKeyFor, getApiKeyFor, getApiKeyWithHistoryFor, apiKeyPage, deletedApiKeyPage,
  MAX_ROTATION_GRACE_HOURS, rotateApiKeyFor, updateApiKeyFor, type ListedApiKey,
} from '../../services/delivery/api-key-admin.ts'
import { LATENCY_BOUNDS_MS, USAGE_DAYS, usageReport } from '../../services/delivery/usage.ts'
import { isProviderAdmin } from '../../services/context.ts'
import { seal, unseal } from '../../services/integrations/secrets.ts'
import { PageCursorParam, pageCursor } from '../page-cursor.ts'
import { dateFormatter } from '../format.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { itemId } from '../api/ids.ts'
import { FormBody, IdString } from '../schemas.ts'
import { chosenSetIds } from '../../services/library/set-choices.ts'
import { findSetsIn, keptValues, renderFormError } from './forms.ts'

declare module 'fastify' {
  interface Session {
    /** The secret of a key just created or rotated, sealed, until its copy page has been shown once. */
    apiKeyReveal?: { keyId: number; sealed: string; until: number; rotated?: boolean }
  }
}

const KeyParams = Type.Object({ keyId: IdString })
/** The lists' keysets: the live key, and the deleted key, after which each goes on. */
const KeyListQuery = Type.Object({ after: PageCursorParam, deletedAfter: PageCursorParam })
const REVEAL_MS = 10 * 60 * 1000

/**
 * Sessions live in the database, which must never hold a usable key: the secret crosses the redirect to the copy
 * page sealed (AES-256-GCM) with a key derived from the session secret, which the database does not have.
 */
const REVEAL_PURPOSE = 'api-key-reveal'

function keyIdOf(params: Static<typeof KeyParams>): number {
  return itemId(params.keyId, 'keyId')
}

/** "≤ 20 ms" / "> 5000 ms" / "—": percentiles are bucket upper bounds, not exact times. */
function latencyLabel(ms: number | null): string {
  if (ms === null) return '—'
  return Number.isFinite(ms) ? `≤ ${ms} ms` : `> ${LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1]} ms`
}

/** Form values of a saved key, as the form fields name them. */
function valuesOf(key: ListedApiKey): Record<string, unknown> {
  return {
    name: key.name, environment: key.environment, ownerId: key.ownerId, audienceId: key.audienceId ?? '',
    allowedAdviceSetIds: key.allowedAdviceSetIds.map(String), allowedOrigins: key.allowedOrigins.join('\n'), rateLimit: key.rateLimit, adviceRequests: key.adviceRequests,
    explain: key.explain ? 'allow' : 'refuse',
  }
}

export const apiKeyPages: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps

  /** The form with `values`; its set choices hold the sets they name, and those found by `find` (findSets). */
  const formPage = async (request: FastifyRequest, extra: { values: Record<string, unknown>; find?: string } & Record<string, unknown>) => ({
    title: extra.key ? 'Edit API key' : 'New API key',
    choices: await apiKeyFormChoices(deps, actorOf(request), { chosen: chosenSetIds(extra.values.allowedAdviceSetIds), find: extra.find }),
    providerAdmin: isProviderAdmin(actorOf(request)), maxGraceHours: MAX_ROTATION_GRACE_HOURS, now: new Date(),
    formatDate: dateFormatter(request.user!.preferences.tz), ...extra,
  })

  const reveal = (request: FastifyRequest, keyId: number, secret: string, rotated: boolean) => {
    request.session.apiKeyReveal = { keyId, sealed: seal(secret, deps.config.sessionSecret, REVEAL_PURPOSE), until: Date.now() + REVEAL_MS, rotated }
  }

  app.get('/admin/apikey', { preHandler: requireUser, schema: { querystring: KeyListQuery } }, async (request, reply) => {
    const after = pageCursor(request.query.after, 'after')
    const deletedAfter = pageCursor(request.query.deletedAfter, 'deletedAfter')
    const [keys, deletedKeys] = await Promise.all([apiKeyPage(deps, actorOf(request), after), deletedApiKeyPage(deps, actorOf(request), deletedAfter)])
    return reply.page('admin/apikey/index', {
      title: 'API keys', keys: keys.shown, keysNextAfter: keys.nextAfter, deletedKeys: deletedKeys.shown, deletedNextAfter: deletedKeys.nextAfter,
      paged: after !== undefined, deletedPaged: deletedAfter !== undefined, providerAdmin: isProviderAdmin(actorOf(request)), formatDate: dateFormatter(request.user!.preferences.tz),
    })
  })

  app.get('/admin/apikey/new', { preHandler: requireUser }, async (request, reply) =>
    reply.page('admin/apikey/form', await formPage(request, { values: { environment: 'production', rateLimit: 600 } })))

  app.post('/admin/apikey/new', { preHandler: requireUser, schema: { body: FormBody } }, async (request, reply) => {
    const body = request.body ?? {}
    const find = findSetsIn(body)
    if (find !== null) return reply.page('admin/apikey/form', await formPage(request, { values: keptValues(body), find }))
    try {
      const { key, secret } = await createApiKeyFor(deps, actorOf(request), body)
      reveal(request, key.id, secret, false)
      return reply.redirect(`/admin/apikey/${key.id}/copy`, 303)
    } catch (error) {
      return renderFormError(reply, error, 'admin/apikey/form', await formPage(request, { values: keptValues(body) }))
    }
  })

  app.get('/admin/apikey/:keyId/copy', { preHandler: requireUser, schema: { params: KeyParams } }, async (request, reply) => {
    const key = await getApiKeyFor(deps, actorOf(request), keyIdOf(request.params))
    const revealed = request.session.apiKeyReveal
    let secret: string | null = null
    if (revealed?.keyId === key.id) {
      // Taken out of the session before rendering: a reload, a second tab or the back button finds nothing.
      delete request.session.apiKeyReveal
      if (revealed.until > Date.now()) secret = unseal(revealed.sealed, deps.config.sessionSecret, REVEAL_PURPOSE)
    }
    const rotated = secret !== null && revealed?.rotated === true
    reply.header('cache-control', 'no-store')
    return reply.page('admin/apikey/copy', {
      title: rotated ? 'API key rotated' : 'API key created', key, secret, rotated, now: new Date(), formatDate: dateFormatter(request.user!.preferences.tz),
    })
  })

  app.get('/admin/apikey/:keyId/edit', { preHandler: requireUser, schema: { params: KeyParams } }, async (request, reply) => {
    const key = await getApiKeyFor(deps, actorOf(request), keyIdOf(request.params))
    return reply.page('admin/apikey/form', await formPage(request, { key, values: valuesOf(key) }))
  })

  app.post('/admin/apikey/:keyId/edit', { preHandler: requireUser, schema: { params: KeyParams, body: FormBody } }, async (request, reply) => {
    const body = request.body ?? {}
    const key = await getApiKeyFor(deps, actorOf(request), keyIdOf(request.params))
    const find = findSetsIn(body)
    if (find !== null) return reply.page('admin/apikey/form', await formPage(request, { key, values: { ...valuesOf(key), ...keptValues(body) }, find }))
    try {
      const saved = await updateApiKeyFor(deps, actorOf(request), key.id, body)
      reply.flash({ type: 'info', text: `API key "${saved.name}" saved.` })
      return reply.redirect('/admin/apikey', 303)
    } catch (error) {
      return renderFormError(reply, error, 'admin/apikey/form', await formPage(request, { key, values: { ...valuesOf(key), ...keptValues(body) } }))
    }
  })

  app.post('/admin/apikey/:keyId/rotate', { preHandler: requireUser, schema: { params: KeyParams, body: FormBody } }, async (request, reply) => {
    const body = request.body ?? {}
    const key = await getApiKeyFor(deps, actorOf(request), keyIdOf(request.params))
    try {
      const { secret } = await rotateApiKeyFor(deps, actorOf(request), key.id, { graceHours: body.graceHours })
      reveal(request, key.id, secret, true)
      return reply.redirect(`/admin/apikey/${key.id}/copy`, 303)
    } catch (error) {
      return renderFormError(reply, error, 'admin/apikey/form', await formPage(request, { key, values: valuesOf(key), graceHours: body.graceHours }))
    }
  })

  app.post('/admin/apikey/:keyId/delete', { preHandler: requireUser, schema: { params: KeyParams } }, async (request, reply) => {
    const key = await getApiKeyFor(deps, actorOf(request), keyIdOf(request.params))
    await deleteApiKeyFor(deps, actorOf(request), key.id)
    reply.flash({ type: 'info', text: `API key "${key.name}" deleted. Requests with it are refused from now on.` })
    return reply.redirect('/admin/apikey', 303)
  })

  // A deleted key's usage stays readable (its delete dialog promises so).
  app.get('/admin/apikey/:keyId/usage', { preHandler: requireUser, schema: { params: KeyParams } }, async (request, reply) => {
    const key = await getApiKeyWithHistoryFor(deps, actorOf(request), keyIdOf(request.params))
    return reply.page('admin/apikey/usage', {
      title: `Usage of ${key.name}`, key, report: await usageReport(deps.db, key.id), usageDays: USAGE_DAYS, latencyLabel,
      formatDate: dateFormatter(request.user!.preferences.tz),
    })
  })
}
