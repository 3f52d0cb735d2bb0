// The subject rights page (issue 26, page `admin-decisions-subject`): an owner's admin (a provider admin for any owner,
// `ownerId`) picks a personal variable, types the value a person gave, and finds that person's decision records
// (access), downloads them as JSON (export) or erases them after a confirmation that says how many. Forms post, so the
// value never appears in an address.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { listOwnersForAdmin } from '../../services/accounts/users.ts'
import { isProviderAdmin } from '../../services/context.ts'
import { eraseSubjectDecisions, exportSubjectDecisions, findSubjectDecisions, subjectForm, type SubjectQuery } from '../../services/decisions/subject-rights.ts'
import { requireOneOf } from '../../services/validate.ts'
import { dispositionHeader } from '../header-values.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { FormBody } from '../schemas.ts'
import { keptValues, renderFormError } from './forms.ts'

const PAGE = '/admin/decisions/subject'
const SubjectPageQuery = Type.Object({ ownerId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) })
const ACTIONS = ['find', 'export', 'erase'] as const

type Body = Record<string, unknown>
const text = (body: Body, key: string) => (typeof body[key] === 'string' && body[key] !== '' ? body[key] : undefined)

function queryOf(body: Body): SubjectQuery {
  return { ownerId: text(body, 'ownerId'), variable: body.variable, value: body.value }
}

function pageUrl(ownerId: string, ownOwnerId: string): string {
  return ownerId === ownOwnerId ? PAGE : `${PAGE}?ownerId=${encodeURIComponent(ownerId)}`
}

export const decisionSubjectPages: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps

  /** The page's data: the owner, its personal variables, and for provider admins the owners to choose from. */
  async function pageData(request: FastifyRequest, ownerId: string | undefined, extra: Record<string, unknown> = {}) {
    const actor = actorOf(request)
    const form = await subjectForm(deps, actor, ownerId)
    return {
      title: 'Decision records of a person', form, owners: isProviderAdmin(actor) ? await listOwnersForAdmin(deps, actor) : null,
      values: { variable: form.variables[0] ?? '', value: '' }, found: null, ...extra,
    }
  }

  async function refuse(reply: FastifyReply, request: FastifyRequest, error: unknown, body: Body) {
    return renderFormError(reply, error, 'admin/decisions-subject', await pageData(request, text(body, 'ownerId'), { values: keptValues(body) }))
  }

  app.get(PAGE, { preHandler: requireUser, schema: { querystring: SubjectPageQuery } }, async (request, reply) =>
    reply.page('admin/decisions-subject', await pageData(request, request.query.ownerId)))

  app.post(PAGE, { preHandler: requireUser, schema: { body: FormBody } }, async (request, reply) => {
    const body = request.body ?? {}
    const actor = actorOf(request)
    try {
      const action = requireOneOf('action', body.action, ACTIONS, 'Action')
      if (action === 'export') {
        const { fileName, document } = await exportSubjectDecisions(deps, actor, queryOf(body))
        return reply.type('application/json; charset=utf-8').header('content-disposition', dispositionHeader(fileName, 'attachment'))
          .header('cache-control', 'no-store').send(JSON.stringify(document, null, 2))
      }
      // Erasing asks first, with the records it would delete (looking them up is itself an access, and logged).
      const found = await findSubjectDecisions(deps, actor, queryOf(body))
      const values = { variable: found.variable, value: typeof body.value === 'string' ? body.value.trim() : '' }
      if (action === 'erase') return reply.page('admin/decisions-subject-erase', { title: 'Erase decision records?', found, values, back: pageUrl(found.ownerId, actor.ownerId) })
      return reply.page('admin/decisions-subject', await pageData(request, found.ownerId, { values, found }))
    } catch (error) {
      return refuse(reply, request, error, body)
    }
  })

  app.post(`${PAGE}/erase`, { preHandler: requireUser, schema: { body: FormBody } }, async (request, reply) => {
    const body = request.body ?? {}
    const actor = actorOf(request)
    try {
      const done = await eraseSubjectDecisions(deps, actor, queryOf(body))
      reply.flash({ type: 'info', text: `${done.erased === 1 ? '1 decision record' : `${done.erased} decision records`} erased where {{${done.variable}}} held the value given.` })
      return reply.redirect(pageUrl(done.ownerId, actor.ownerId), 303)
    } catch (error) {
      return refuse(reply, request, error, body)
    }
  })
}
