// /api/supplements: SPEC §7 supplements — upload, {id}, {id}/link, {id}/unlink, {id}/view (optional format) — plus the
// list the uploaders and pickers read, creating a link supplement, and restore.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { createLinkSupplementFor, linkedTo, linkSupplement, targetTypeOf, unlinkSupplement } from '../../services/files/links.ts'
import { viewSupplement } from '../../services/files/serve.ts'
import {
  createLinkSupplement, deleteSupplement, editSupplement, getSupplement, listedView, listLibrary, publicView, restoreSupplement,
} from '../../services/files/supplements.ts'
import { uploadSupplement } from '../../services/files/uploads.ts'
import type { Viewer } from '../../services/files/access.ts'
import { NotFoundError, UnauthorizedError } from '../../services/errors.ts'
import { FILE_HEADERS, sendServedFile } from '../file-reply.ts'
import { externalLocation } from '../header-values.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { AnyId, IdParams, IdString, StringEnum } from '../schemas.ts'
import { receiveUpload, registerMultipart, UPLOAD_BODY_LIMIT } from '../uploads.ts'
import { itemId } from './ids.ts'

const ListQuery = Type.Object({
  library: Type.Optional(StringEnum(['media', 'visualizations', 'all'])),
  q: Type.Optional(Type.String({ maxLength: 200 })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  targetType: Type.Optional(Type.String({ maxLength: 20 })),
  targetId: Type.Optional(IdString),
}, { additionalProperties: false })
const texts = {
  name: Type.Optional(Type.String({ maxLength: 1000 })), type: Type.Optional(Type.String({ maxLength: 40 })),
  description: Type.Optional(Type.String({ maxLength: 5000 })), imageUrl: Type.Optional(Type.String({ maxLength: 5000 })),
}
const CreateLinkBody = Type.Object({
  url: Type.String({ maxLength: 5000 }), ...texts, targetType: Type.Optional(Type.String({ maxLength: 20 })), targetId: Type.Optional(AnyId),
}, { additionalProperties: false })
/** `library=visualizations`: the upload must be an HTML page (the visualization library's uploader). */
const UploadQuery = Type.Object({ library: Type.Optional(StringEnum(['media', 'visualizations'])) }, { additionalProperties: false })
const UpdateBody = Type.Object({ url: Type.Optional(Type.String({ maxLength: 5000 })), ...texts }, { additionalProperties: false })
const LinkBody = Type.Object({ targetType: Type.String({ maxLength: 20 }), targetId: AnyId }, { additionalProperties: false })
const ViewQuery = Type.Object({
  format: Type.Optional(StringEnum(['original', 'download', 'link'])),
  thumbnail: Type.Optional(Type.String({ maxLength: 20 })),
  token: Type.Optional(Type.String({ maxLength: 100 })),
}, { additionalProperties: false })

/** The session's user, or the holder of the supplement's token (SPEC §7: the absolute link for open and copy). */
function viewerOf(request: FastifyRequest, token: string | undefined): Viewer {
  if (token) return { token }
  if (!request.actor) throw new UnauthorizedError()
  return { actor: request.actor }
}

export const supplementsApi: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps
  await registerMultipart(app)

  // Open to token holders as well as signed-in readers, so outside the requireUser context below.
  app.get('/:id/view', { schema: { params: IdParams, querystring: ViewQuery }, helmet: FILE_HEADERS }, async (request, reply) => {
    const { format, thumbnail, token } = request.query
    const answer = await viewSupplement(deps, viewerOf(request, token), itemId(request.params.id), { format, thumbnail })
    if (answer.kind === 'link') return { data: { url: answer.url } }
    if (answer.kind === 'redirect') {
      // A link supplement's page is on another site by design; its address was checked when saved and is again here.
      const location = externalLocation(answer.url)
      if (location === null) throw new NotFoundError('This link has no address that can be opened.')
      return reply.redirect(location, 302)
    }
    return sendServedFile(reply, answer, { frame: false })
  })

  await app.register(signedInRoutes)
}

const signedInRoutes: FastifyPluginAsyncTypebox = async (signedIn) => {
  const deps = signedIn.deps
  signedIn.addHook('preHandler', requireUser)

  signedIn.post('/upload', { bodyLimit: UPLOAD_BODY_LIMIT, schema: { querystring: UploadQuery } }, async (request, reply) => {
    const onlyVisualizations = request.query.library === 'visualizations'
    const row = await receiveUpload(request, (parts) => uploadSupplement(deps, actorOf(request), parts, { onlyVisualizations }))
    reply.code(201)
    return { data: listedView(row) }
  })

  signedIn.get('/', { schema: { querystring: ListQuery } }, async (request) => {
    const query = request.query
    if (query.targetType !== undefined || query.targetId !== undefined) {
      return { data: await linkedTo(deps, actorOf(request), { targetType: targetTypeOf(query.targetType), targetId: itemId(query.targetId, 'targetId') }) }
    }
    const library = await listLibrary(deps, actorOf(request), { library: query.library ?? 'media', text: query.q, page: query.page ?? 1 })
    return { data: library.entries, meta: { total: library.total, page: library.page, pageCount: library.pageCount } }
  })

  signedIn.post('/', { schema: { body: CreateLinkBody } }, async (request, reply) => {
    const { targetType, targetId, ...input } = request.body
    const row = targetType === undefined && targetId === undefined
      ? await createLinkSupplement(deps, actorOf(request), input)
      : await createLinkSupplementFor(deps, actorOf(request), input, { targetType: targetTypeOf(targetType), targetId: itemId(targetId, 'targetId') })
    reply.code(201)
    return { data: listedView(row) }
  })

  signedIn.get('/:id', { schema: { params: IdParams } }, async (request) => ({ data: await getSupplement(deps, actorOf(request), itemId(request.params.id)) }))

  signedIn.patch('/:id', { schema: { params: IdParams, body: UpdateBody } }, async (request) => {
    return { data: publicView(await editSupplement(deps, actorOf(request), itemId(request.params.id), request.body)) }
  })

  signedIn.delete('/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteSupplement(deps, actorOf(request), itemId(request.params.id))
    return { data: { deleted: true } }
  })

  signedIn.post('/:id/restore', { schema: { params: IdParams } }, async (request) => {
    return { data: publicView(await restoreSupplement(deps, actorOf(request), itemId(request.params.id))) }
  })

  signedIn.post('/:id/link', { schema: { params: IdParams, body: LinkBody } }, async (request) => {
    const target = { targetType: targetTypeOf(request.body.targetType), targetId: itemId(request.body.targetId, 'targetId') }
    return { data: await linkSupplement(deps, actorOf(request), itemId(request.params.id), target) }
  })

  signedIn.post('/:id/unlink', { schema: { params: IdParams, body: LinkBody } }, async (request) => {
    const target = { targetType: targetTypeOf(request.body.targetType), targetId: itemId(request.body.targetId, 'targetId') }
    return { data: await unlinkSupplement(deps, actorOf(request), itemId(request.params.id), target) }
  })
}
