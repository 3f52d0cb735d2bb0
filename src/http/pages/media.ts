// The media and visualization libraries (SPEC §2 Media and Visualizations rows; page name media-index): index with
// search by name, new (the uploader, and a plain multipart form without JavaScript), show, edit, and iframe, which
// serves the content itself for a frame: sandboxed, never active in the app's origin (http/file-reply.ts).
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { frameContent } from '../../services/files/serve.ts'
import { formChoices, libraryPage, supplementPage } from '../../services/files/library-pages.ts'
import {
  assertCanCreate, createLinkSupplement, deleteSupplement, editSupplement, LIBRARIES, restoreSupplement, supplementHref, type Library,
} from '../../services/files/supplements.ts'
import { uploadSupplement } from '../../services/files/uploads.ts'
import { canCreate, changeRefusal } from '../../services/accounts/visibility.ts'
import { DeleteNotAllowedError } from '../../services/errors.ts'
import { itemId } from '../api/ids.ts'
import { FILE_HEADERS, sendServedFile } from '../file-reply.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { FormBody, IdParams } from '../schemas.ts'
import { receiveUpload, registerMultipart, UPLOAD_BODY_LIMIT } from '../uploads.ts'
import { keptValues, renderFormError } from './forms.ts'

const IndexQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200 })), page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  /** Just deleted: the page offers to restore it. */
  deleted: Type.Optional(Type.Integer({ minimum: 1 })),
}, { additionalProperties: false })
const FrameQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 100 })) }, { additionalProperties: false })
/** The no-JavaScript upload form sends its CSRF token in the query: a multipart body is read only after the check. */
const NewQuery = Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 200 })) }, { additionalProperties: false })

export const mediaPages: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps
  await registerMultipart(app)

  /** The CSRF check of the upload form: a multipart body is streamed by the handler, so its token travels in the query. */
  function csrfOfUploadForm(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
    const query = request.query
    if (request.isMultipart()) request.body = { _csrf: typeof query === 'object' && query !== null && '_csrf' in query ? query._csrf : undefined }
    app.csrfProtection(request, reply, done)
  }

  for (const library of Object.keys(LIBRARIES) as Library[]) {
    const base = LIBRARIES[library].path
    const title = LIBRARIES[library].title

    const newPage = (request: FastifyRequest, reply: FastifyReply, extra: Record<string, unknown> = {}) => reply.page('media/new', {
      title: library === 'media' ? 'Add media' : 'Add a visualization', ...formChoices(library), ...extra,
    })
    const showPage = async (request: FastifyRequest, reply: FastifyReply, id: number, extra: Record<string, unknown> = {}) => {
      const data = await supplementPage(deps, actorOf(request), library, id)
      return reply.page('media/show', { title: data.supplement.name, ...data, ...extra })
    }

    app.get(base, { preHandler: requireUser, schema: { querystring: IndexQuery } }, async (request, reply) => {
      const data = await libraryPage(deps, actorOf(request), library, request.query)
      const query = request.query.q ?? ''
      const pageUrl = (page: number) => {
        const params = new URLSearchParams({ ...(query ? { q: query } : {}), ...(page > 1 ? { page: String(page) } : {}) }).toString()
        return params ? `${base}?${params}` : base
      }
      return reply.page('media/index', { title, ...data, q: query, canCreate: canCreate(actorOf(request)), pageUrl, deletedId: request.query.deleted ?? null })
    })

    app.get(`${base}/new`, { preHandler: requireUser }, async (request, reply) => {
      assertCanCreate(actorOf(request))
      return newPage(request, reply)
    })

    // A multipart upload (the plain form; the island uses /api/supplements/upload) or, for media, a link form.
    app.post(`${base}/new`, {
      bodyLimit: UPLOAD_BODY_LIMIT, preHandler: [requireUser, csrfOfUploadForm], config: { csrf: false }, schema: { querystring: NewQuery, body: FormBody },
    }, async (request, reply) => {
      const actor = actorOf(request)
      try {
        const row = request.isMultipart()
          ? await receiveUpload(request, (parts) => uploadSupplement(deps, actor, parts, { onlyVisualizations: library === 'visualizations' }))
          : await createLinkSupplement(deps, actor, request.body ?? {})
        reply.flash({ type: 'success', text: `“${row.name}” was added.` })
        return reply.redirect(supplementHref(row), 303)
      } catch (error) {
        return renderFormError(reply, error, 'media/new', {
          title: library === 'media' ? 'Add media' : 'Add a visualization', ...formChoices(library), values: keptValues(request.body),
        })
      }
    })

    app.get(`${base}/:id/show`, { preHandler: requireUser, schema: { params: IdParams } }, async (request, reply) => showPage(request, reply, itemId(request.params.id)))

    app.get(`${base}/:id/edit`, { preHandler: requireUser, schema: { params: IdParams } }, async (request, reply) => {
      const data = await supplementPage(deps, actorOf(request), library, itemId(request.params.id))
      const s = data.supplement
      if (!s.canWrite) return showPage(request, reply.code(403), s.id, { formError: changeRefusal(actorOf(request), s.ownerId, 'supplement') })
      return reply.page('media/edit', {
        title: `Edit ${s.name}`, ...data, ...formChoices(library),
        values: { name: s.name, type: s.type, description: s.description, url: s.url ?? '', imageUrl: s.imageUrl ?? '' },
      })
    })

    app.post(`${base}/:id/edit`, { preHandler: requireUser, schema: { params: IdParams, body: FormBody } }, async (request, reply) => {
      const id = itemId(request.params.id)
      const data = await supplementPage(deps, actorOf(request), library, id)
      const body = request.body ?? {}
      try {
        const saved = await editSupplement(deps, actorOf(request), id, body)
        reply.flash({ type: 'success', text: `“${saved.name}” was saved.` })
        return reply.redirect(supplementHref(saved), 303)
      } catch (error) {
        return renderFormError(reply, error, 'media/edit', { title: `Edit ${data.supplement.name}`, ...data, ...formChoices(library), values: keptValues(body) })
      }
    })

    app.post(`${base}/:id/delete`, { preHandler: requireUser, schema: { params: IdParams, body: FormBody } }, async (request, reply) => {
      const id = itemId(request.params.id)
      const data = await supplementPage(deps, actorOf(request), library, id)
      try {
        await deleteSupplement(deps, actorOf(request), id)
      } catch (error) {
        if (!(error instanceof DeleteNotAllowedError)) throw error
        return showPage(request, reply.code(221), id, { blocked: { message: error.message, dependents: error.dependents } })
      }
      reply.flash({ type: 'info', text: `“${data.supplement.name}” was deleted. It can be restored from Activity.` })
      return reply.redirect(`${base}?deleted=${id}`, 303)
    })

    app.post(`${base}/:id/restore`, { preHandler: requireUser, schema: { params: IdParams, body: FormBody } }, async (request, reply) => {
      const row = await restoreSupplement(deps, actorOf(request), itemId(request.params.id))
      reply.flash({ type: 'success', text: `“${row.name}” was restored.` })
      return reply.redirect(supplementHref(row), 303)
    })

    // The content itself, for a frame (or anyone holding the supplement's token): not a page, so no page marker.
    app.get(`${base}/:id/iframe`, { schema: { params: IdParams, querystring: FrameQuery }, helmet: FILE_HEADERS }, async (request, reply) => {
      const token = request.query.token
      if (!token) {
        await requireUser.call(app, request, reply)
        if (reply.sent) return reply
      }
      const viewer = token ? { token } : { actor: actorOf(request) }
      const dest = request.headers['sec-fetch-dest']
      const file = await frameContent(deps, viewer, library, itemId(request.params.id), typeof dest === 'string' ? dest : undefined)
      return sendServedFile(reply, file, { frame: true })
    })
  }
}
