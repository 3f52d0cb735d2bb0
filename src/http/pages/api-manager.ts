// The API manager (SPEC §2: /api-manager, /api-manager/new, /api-manager/{id}/edit; page name external-api-form).
// Without JavaScript the form is a plain round trip: "Save" stores it, "Send test request" sends the form as typed
// (saved or not) and shows the answer on the re-rendered page. With JavaScript the api-definition island edits it
// through /api/external-api and shows test requests in place. Rights are checked by the services on every call.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  canWriteExternalApis, createExternalApi, definitionFormChoices, deleteExternalApi, externalApiUses, getExternalApi, listExternalApisFor,
  placeholdersOf, sendTestRequest, updateExternalApiFor, type ExternalApiInput, type ExternalApiView, type TestRequestResult,
} from '../../services/integrations/external-apis.ts'
import { DeleteNotAllowedError, ForbiddenError } from '../../services/errors.ts'
import { dateFormatter } from '../format.ts'
import { itemId } from '../api/ids.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { FormBody, IdParams } from '../schemas.ts'
import { renderFormError } from './forms.ts'

/** Blank rows the form offers without JavaScript for new headers and mappings. */
const SPARE_ROWS = 2

type Row = Record<string, string>

/** `prefix.N.member` fields of a flat form as rows in N order. */
function rowsOf(body: Record<string, unknown>, prefix: string): Row[] {
  const rows = new Map<number, Row>()
  for (const [key, value] of Object.entries(body)) {
    const match = new RegExp(`^${prefix}\\.(\\d{1,3})\\.(\\w+)$`).exec(key)
    if (!match) continue
    const index = Number(match[1])
    const row = rows.get(index) ?? {}
    row[match[2]!] = Array.isArray(value) ? String(value.at(-1)) : String(value ?? '')
    rows.set(index, row)
  }
  return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, row]) => row)
}

/** The posted form as the service's input (the same shape the API takes). */
function definitionOf(body: Record<string, unknown>): ExternalApiInput {
  return {
    name: body.name, method: body.method, urlTemplate: body.urlTemplate, bodyTemplate: body.bodyTemplate,
    timeoutMs: body.timeoutMs, cacheTtlSeconds: body.cacheTtlSeconds, sampleResponse: body.sampleResponse,
    headers: rowsOf(body, 'headers').map((h) => ({ name: h.name ?? '', value: h.value ?? '', secret: h.secret === 'on' || h.secret === 'true' })),
    responseMapping: rowsOf(body, 'responseMapping').map((m) => ({ path: m.path ?? '', variable: m.variable ?? '', dataType: m.dataType ?? '' })),
  }
}

function testInputsOf(body: Record<string, unknown>): Record<string, string> {
  const inputs: Record<string, string> = {}
  for (const [key, value] of Object.entries(body)) if (key.startsWith('input.')) inputs[key.slice('input.'.length)] = String(value ?? '')
  return inputs
}

/** The form's values from a saved definition (secret values are the mask; left as typed, they keep what is stored). */
function valuesOf(view: ExternalApiView): Record<string, unknown> {
  return {
    name: view.name, method: view.method, urlTemplate: view.urlTemplate, bodyTemplate: view.bodyTemplate, timeoutMs: view.timeoutMs,
    cacheTtlSeconds: view.cacheTtlSeconds, sampleResponse: view.sampleResponse,
    headers: view.headers.map((h) => ({ ...h, value: h.secret ? '' : h.value })), responseMapping: view.responseMapping,
  }
}

interface FormData {
  title: string
  definition: ExternalApiView | null
  values: Record<string, unknown>
  inputs?: Record<string, string>
  test?: TestRequestResult | null
  uses?: Awaited<ReturnType<typeof externalApiUses>>
  message?: string
  dependents?: unknown[]
}

/** Everything the form page renders. */
function formPage(request: FastifyRequest, data: FormData): Record<string, unknown> {
  const values = data.values as ExternalApiInput
  const headers = Array.isArray(values.headers) ? values.headers : []
  const mapping = Array.isArray(values.responseMapping) ? values.responseMapping : []
  const blank = (n: number, row: Row) => Array.from({ length: n }, () => ({ ...row }))
  const form = {
    id: data.definition?.id ?? null,
    storedSecrets: (data.definition?.headers ?? []).filter((h) => h.secret).map((h) => h.name),
    values: { ...data.values, headers: [...headers, ...blank(SPARE_ROWS, { name: '', value: '', secret: '' })], responseMapping: [...mapping, ...blank(SPARE_ROWS, { path: '', variable: '', dataType: 'number' })] },
    placeholders: placeholdersOf(values as Record<string, unknown>),
    inputs: data.inputs ?? {},
    ...definitionFormChoices(),
  }
  return {
    ...data, form, test: data.test ?? null, uses: data.uses ?? [],
    islandProps: { ...form, values: { ...data.values, headers, responseMapping: mapping }, test: data.test ?? null, canWrite: canWriteExternalApis(actorOf(request)) },
    canWrite: canWriteExternalApis(actorOf(request)),
  }
}

function renderForm(request: FastifyRequest, reply: FastifyReply, data: FormData) {
  return reply.page('externalapi/form', formPage(request, data))
}

export const apiManagerPages: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps
  const route = { preHandler: requireUser, schema: { params: IdParams } }
  const formRoute = { preHandler: requireUser, schema: { params: IdParams, body: FormBody } }

  app.get('/api-manager', { preHandler: requireUser }, async (request, reply) => {
    const actor = actorOf(request)
    return reply.page('externalapi/index', {
      title: 'External APIs', definitions: await listExternalApisFor(deps, actor), canWrite: canWriteExternalApis(actor),
      formatDate: dateFormatter(request.user!.preferences.tz),
    })
  })

  const newData = (values: Record<string, unknown>): FormData => ({ title: 'New external API', definition: null, values })

  app.get('/api-manager/new', { preHandler: requireUser }, async (request, reply) => {
    if (!canWriteExternalApis(actorOf(request))) throw new ForbiddenError('Only authors and admins create external APIs. Ask an admin of your team to make you an author.')
    return renderForm(request, reply, newData({ method: 'GET', timeoutMs: 5000, cacheTtlSeconds: 300, headers: [], responseMapping: [] }))
  })

  app.post('/api-manager/new', { preHandler: requireUser, schema: { body: FormBody } }, async (request, reply) => {
    const body = request.body ?? {}
    const input = definitionOf(body)
    const data = { ...newData(input as Record<string, unknown>), inputs: testInputsOf(body) }
    try {
      if (body.action === 'send') {
        return renderForm(request, reply, { ...data, test: await sendTestRequest(deps, actorOf(request), { definition: input, inputs: data.inputs }) })
      }
      const created = await createExternalApi(deps, actorOf(request), input)
      reply.flash({ type: 'info', text: `External API “${created.name}” created.` })
      return reply.redirect(`/api-manager/${created.id}/edit`, 303)
    } catch (error) {
      return renderFormError(reply, error, 'externalapi/form', formPage(request, data))
    }
  })

  const editData = async (request: FastifyRequest, id: number): Promise<FormData> => {
    const actor = actorOf(request)
    const definition = await getExternalApi(deps, actor, id)
    return { title: `${definition.name} · External API`, definition, values: valuesOf(definition), uses: await externalApiUses(deps, actor, id) }
  }

  app.get('/api-manager/:id/edit', route, async (request, reply) => renderForm(request, reply, await editData(request, itemId(request.params.id))))

  app.post('/api-manager/:id/edit', formRoute, async (request, reply) => {
    const id = itemId(request.params.id)
    const body = request.body ?? {}
    const input = definitionOf(body)
    const data = { ...(await editData(request, id)), values: input as Record<string, unknown>, inputs: testInputsOf(body) }
    try {
      if (body.action === 'send') {
        return renderForm(request, reply, { ...data, test: await sendTestRequest(deps, actorOf(request), { id, definition: input, inputs: data.inputs }) })
      }
      const saved = await updateExternalApiFor(deps, actorOf(request), id, input)
      reply.flash({ type: 'info', text: `External API “${saved.name}” saved.` })
      return reply.redirect(`/api-manager/${id}/edit`, 303)
    } catch (error) {
      return renderFormError(reply, error, 'externalapi/form', formPage(request, data))
    }
  })

  app.post('/api-manager/:id/delete', route, async (request, reply) => {
    const id = itemId(request.params.id)
    const data = await editData(request, id)
    try {
      await deleteExternalApi(deps, actorOf(request), id)
    } catch (error) {
      if (!(error instanceof DeleteNotAllowedError)) throw error
      reply.code(221)
      return renderForm(request, reply, { ...data, message: error.message, dependents: error.dependents })
    }
    reply.flash({ type: 'info', text: `External API “${data.definition!.name}” deleted. It can be restored from the activity log.` })
    return reply.redirect('/api-manager', 303)
  })
}
