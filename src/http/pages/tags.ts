// The tags admin (page `tag`, admins): /admin/tag lists the tags with their type and how many sets use them, and
// creates one; /admin/tag/{id}/edit changes label, type and description, shows where the tag is used, merges it
// into another tag and deletes it (the provider's fixed tags can be neither merged away nor deleted). A merge or a
// delete is confirmed first on its own page (…/confirm-merge?into=, …/confirm-delete), which says how many advice
// sets' links move or go; it works without JavaScript.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { createTag, deletePreview, deleteTag, mergePreview, mergeTags, tagAdminPage, tagDetails, TAG_TYPES, updateTagAdmin } from '../../services/library/tags.ts'
import { PageCursorParam, pageCursor } from '../page-cursor.ts'
import { countOf } from '../format.ts'
import { itemId } from '../api/ids.ts'
import { actorOf, requireRole } from '../plugins/auth.ts'
import { FormBody, IdString } from '../schemas.ts'
import { keptValues, renderFormError } from './forms.ts'

const TagParams = Type.Object({ id: IdString })
const MergeQuery = Type.Object({ into: IdString })
/** The list's keyset: the tag after which the page goes on. */
const ListQuery = Type.Object({ after: PageCursorParam })
const admins = requireRole('admin')

export const tagPages: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps
  const listPage = async (request: FastifyRequest, after?: number) => {
    const page = await tagAdminPage(deps, actorOf(request), after)
    return { title: 'Tags', tags: page.shown, nextAfter: page.nextAfter, paged: after !== undefined, types: TAG_TYPES }
  }
  const editPage = async (request: FastifyRequest, id: number) => {
    const details = await tagDetails(deps, actorOf(request), id)
    return { title: `Tag ${details.tag.label}`, ...details, types: TAG_TYPES, values: { label: details.tag.label, type: details.tag.type, description: details.tag.description } }
  }
  const back = (reply: FastifyReply, to: string, text: string) => {
    reply.flash({ type: 'info', text })
    return reply.redirect(to, 303)
  }

  app.get('/admin/tag', { preHandler: admins, schema: { querystring: ListQuery } }, async (request, reply) =>
    reply.page('admin/tags', await listPage(request, pageCursor(request.query.after, 'after'))))

  app.post('/admin/tag', { preHandler: admins, schema: { body: FormBody } }, async (request, reply) => {
    const body = request.body ?? {}
    try {
      const tag = await createTag(deps, actorOf(request), { label: body.label, type: body.type })
      return back(reply, '/admin/tag', `Tag “${tag.label}” created.`)
    } catch (error) {
      return renderFormError(reply, error, 'admin/tags', { ...(await listPage(request)), values: keptValues(body) })
    }
  })

  app.get('/admin/tag/:id/edit', { preHandler: admins, schema: { params: TagParams } }, async (request, reply) =>
    reply.page('admin/tag-edit', await editPage(request, itemId(request.params.id))))

  app.post('/admin/tag/:id/edit', { preHandler: admins, schema: { params: TagParams, body: FormBody } }, async (request, reply) => {
    const id = itemId(request.params.id)
    const body = request.body ?? {}
    try {
      await updateTagAdmin(deps, actorOf(request), id, { label: body.label, type: body.type, description: body.description ?? '' })
      return back(reply, `/admin/tag/${id}/edit`, 'Tag saved.')
    } catch (error) {
      return renderFormError(reply, error, 'admin/tag-edit', { ...(await editPage(request, id)), values: keptValues(body) })
    }
  })

  app.get('/admin/tag/:id/confirm-merge', { preHandler: admins, schema: { params: TagParams, querystring: MergeQuery } }, async (request, reply) => {
    const id = itemId(request.params.id)
    try {
      const preview = await mergePreview(deps, actorOf(request), id, itemId(request.query.into, 'into'))
      return reply.page('admin/tag-confirm', { title: `Merge ${preview.tag.label}`, action: 'merge', ...preview, countOf })
    } catch (error) {
      return renderFormError(reply, error, 'admin/tag-edit', await editPage(request, id))
    }
  })

  app.get('/admin/tag/:id/confirm-delete', { preHandler: admins, schema: { params: TagParams } }, async (request, reply) => {
    const id = itemId(request.params.id)
    try {
      const preview = await deletePreview(deps, actorOf(request), id)
      return reply.page('admin/tag-confirm', { title: `Delete ${preview.tag.label}`, action: 'delete', ...preview, countOf })
    } catch (error) {
      return renderFormError(reply, error, 'admin/tag-edit', await editPage(request, id))
    }
  })

  app.post('/admin/tag/:id/merge', { preHandler: admins, schema: { params: TagParams, body: FormBody } }, async (request, reply) => {
    const id = itemId(request.params.id)
    try {
      const into = await mergeTags(deps, actorOf(request), id, itemId(request.body?.into, 'into'))
      return back(reply, `/admin/tag/${into.id}/edit`, `Merged into “${into.label}”.`)
    } catch (error) {
      return renderFormError(reply, error, 'admin/tag-edit', await editPage(request, id))
    }
  })

  app.post('/admin/tag/:id/delete', { preHandler: admins, schema: { params: TagParams } }, async (request, reply) => {
    const id = itemId(request.params.id)
    try {
      await deleteTag(deps, actorOf(request), id)
      return back(reply, '/admin/tag', 'Tag deleted.')
    } catch (error) {
      return renderFormError(reply, error, 'admin/tag-edit', await editPage(request, id))
    }
  })
}
