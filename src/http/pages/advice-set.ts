// Advice set pages (SPEC §2 Advice set row): new, show (and its header, sidebar and details fragments for islands),
// edit, copy, transfer, tags, confirm-delete and delete. Rights are checked by the services on every call.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox'
import {
  ENTITY_ADVICE_SET, addAdviceSetTagNamed, copyAdviceSet, createAdviceSet, deleteAdviceSet, getAdviceSet, setAdviceSetTag, transferAdviceSet,
  updateAdviceSet, type AdviceSetInput,
} from '../../services/library/advice-sets.ts'
import { listVisibleCategories } from '../../services/library/categories.ts'
import { isProviderAdmin, type Actor } from '../../services/context.ts'
import { findDependents } from '../../services/authoring/dependents.ts'
import { DeleteNotAllowedError, ForbiddenError, NotFoundError } from '../../services/errors.ts'
import { noteSetOpened } from '../../services/library/recent-items.ts'
import { deletedRuleOf, setRuleList } from '../../services/authoring/rule-page.ts'
import { listVisibleTags, TAG_SELECT_MAX } from '../../services/library/tags.ts'
import { getProfile, listOwnersForAdmin } from '../../services/accounts/users.ts'
import { canCreate, changeRefusal } from '../../services/accounts/visibility.ts'
import { scenarioCounts } from '../../services/scenarios/scenarios.ts'
import { analyticsDays } from '../../services/delivery/interview-analytics.ts'
import { setInsights } from '../../services/library/set-insights.ts'
import { setSupplements } from '../../services/files/links.ts'
import { MAX_UPLOAD_BYTES } from '../../services/files/uploads.ts'
import { itemId } from '../api/ids.ts'
import { dateFormatter } from '../format.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { FormBody, IdParams } from '../schemas.ts'
import { keptValues, renderFormError } from './forms.ts'

type Body = Record<string, unknown>
const ShowQuery = Type.Object({ deletedRule: Type.Optional(Type.Integer({ minimum: 1 })), days: Type.Optional(Type.String({ maxLength: 3 })) })
const idRoute = { preHandler: requireUser, schema: { params: IdParams } }
const idFormRoute = { preHandler: requireUser, schema: { params: IdParams, body: FormBody } }

const idOf = (params: Static<typeof IdParams>) => itemId(params.id)

/** A checkbox sends nothing when unticked; on a form that has it, that means "no". */
function checkbox(body: Body, name: string): string {
  return body[name] === undefined ? 'false' : String(body[name])
}

/** A user's name when the viewer may see that user; otherwise null (the page names the owner instead). */
async function userName(app: FastifyInstance, actor: Actor, userId: number | null): Promise<string | null> {
  if (userId === null) return null
  try {
    return (await getProfile(app.deps, actor, userId)).name
  } catch (error) {
    if (error instanceof NotFoundError) return null
    throw error
  }
}

async function ownCategories(app: FastifyInstance, actor: Actor, ownerId = actor.ownerId) {
  return (await listVisibleCategories(app.deps, actor)).filter((c) => c.ownerId === ownerId)
}

/** What the show page and its fragments render. */
async function showData(app: FastifyInstance, request: FastifyRequest, id: number) {
  const actor = actorOf(request)
  const set = await getAdviceSet(app.deps, actor, id)
  const formatDate = dateFormatter(request.user!.preferences.tz)
  const createdBy = userName(app, actor, set.createdBy)
  const [allTags, createdByName, updatedByName, owners, rules, scenarios, supplements] = await Promise.all([
    // Enough to tell whether the choices fit a select: the set's own tags, a select's worth, and one more.
    set.canWrite ? listVisibleTags(app.deps, actor, { limit: set.tags.length + TAG_SELECT_MAX + 1 }) : Promise.resolve([]),
    createdBy,
    // Most sets were last changed by whoever made them: one read serves both.
    set.updatedBy === set.createdBy ? createdBy : userName(app, actor, set.updatedBy),
    isProviderAdmin(actor) ? listOwnersForAdmin(app.deps, actor) : Promise.resolve([]),
    setRuleList(app.deps, set.id),
    scenarioCounts(app.deps, actor, set),
    set.canCollaborate ? setSupplements(app.deps, actor, set) : Promise.resolve([]),
  ])
  const onSet = new Set(set.tags.map((t) => t.id))
  const tagChoices = allTags.filter((t) => !onSet.has(t.id))
  const tagPicker = tagChoices.length > TAG_SELECT_MAX
  return {
    title: set.name,
    set,
    rules,
    scenarios,
    supplements,
    uploader: {
      uploadUrl: '/api/supplements/upload', target: { targetType: 'adviceSet', targetId: set.id }, maxFiles: null, maxBytes: MAX_UPLOAD_BYTES,
      files: supplements, removeMode: 'unlink', accept: null, addLabel: 'Add files', multiple: true, readOnly: !set.canWrite,
    },
    canCopy: canCreate(actor),
    canTransfer: isProviderAdmin(actor),
    owners: owners.filter((o) => o.id !== set.ownerId),
    tagChoices: tagPicker ? [] : tagChoices,
    tagPicker: tagPicker ? { inputId: `tag-add-${set.id}`, name: 'tagLabel', label: 'Tag to add', exclude: [...onSet], required: true, placeholder: 'Type a tag’s name' } : null,
    createdByName: createdByName ?? `a member of ${set.ownerName}`,
    updatedByName: updatedByName ?? `a member of ${set.ownerName}`,
    created: formatDate(set.createdAt),
    updated: formatDate(set.updatedAt),
    nameEditor: {
      action: `/api/adviceset/${set.id}`, method: 'PATCH',
      fields: [{ name: 'name', label: 'Name', value: set.name, editor: 'input', required: true, maxLength: 200 }],
    },
    currentAdviceSet: { id: set.id, name: set.name, ownerId: set.ownerId },
  }
}

/** A sub-view for islands: the page's own partial, without the layout, escaped as everywhere else. */
async function fragment(reply: FastifyReply, template: string, data: Record<string, unknown>) {
  const html = await reply.viewAsync(template, { ...data, csrfToken: reply.generateCsrf(), user: reply.request.user, errors: {}, values: {} })
  reply.type('text/html; charset=utf-8')
  return html
}

async function formData(app: FastifyInstance, actor: Actor) {
  return { categories: await ownCategories(app, actor) }
}

async function editData(app: FastifyInstance, request: FastifyRequest, id: number) {
  const actor = actorOf(request)
  const set = await getAdviceSet(app.deps, actor, id)
  if (!set.canWrite) throw new ForbiddenError(changeRefusal(actor, set.ownerId, 'advice set'))
  return {
    title: `Edit ${set.name}`,
    set,
    categories: await ownCategories(app, actor, set.ownerId),
    editorProps: {
      action: `/api/adviceset/${set.id}`, method: 'PATCH',
      fields: [
        { name: 'name', label: 'Name', value: set.name, editor: 'input', required: true, maxLength: 200 },
        { name: 'nameAlt', label: 'Display name', value: set.nameAlt, editor: 'input', maxLength: 200 },
        { name: 'description', label: 'Description', value: set.description, editor: 'textarea', maxLength: 5000 },
      ],
    },
    values: { name: set.name, nameAlt: set.nameAlt, description: set.description, categoryId: set.categoryId ?? '', isPublic: set.isPublic, isStarter: set.isStarter },
  }
}

async function deleteData(app: FastifyInstance, request: FastifyRequest, id: number) {
  const set = await getAdviceSet(app.deps, actorOf(request), id)
  if (!set.canWrite) throw new ForbiddenError(changeRefusal(actorOf(request), set.ownerId, 'advice set'))
  return { title: `Delete ${set.name}`, set }
}

export const adviceSetPages: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/adviceset/new', { preHandler: requireUser }, async (request, reply) => {
    const actor = actorOf(request)
    if (!canCreate(actor)) throw new ForbiddenError('Viewers cannot create advice sets. Ask an admin of your team to make you an author.')
    return reply.page('adviceset/new', { title: 'New advice set', ...(await formData(app, actor)) })
  })

  app.post('/adviceset/new', { preHandler: requireUser, schema: { body: FormBody } }, async (request, reply) => {
    const actor = actorOf(request)
    const body = request.body ?? {}
    try {
      const set = await createAdviceSet(app.deps, actor, {
        name: body.name, nameAlt: body.nameAlt, description: body.description, categoryId: body.categoryId,
        isPublic: checkbox(body, 'isPublic'), isStarter: checkbox(body, 'isStarter'),
      })
      reply.flash({ type: 'info', text: `Advice set “${set.name}” created.` })
      return reply.redirect(`/adviceset/${set.id}/show`, 303)
    } catch (error) {
      return renderFormError(reply, error, 'adviceset/new', { title: 'New advice set', ...(await formData(app, actor)), values: keptValues(body) })
    }
  })

  app.get('/adviceset/:id/show', { preHandler: requireUser, schema: { params: IdParams, querystring: ShowQuery } }, async (request, reply) => {
    const data = await showData(app, request, idOf(request.params))
    await noteSetOpened(app.deps, actorOf(request), data.set)
    // Right after a rule's delete (rule pages), the Rules section offers its Undo.
    const deletedRuleId = request.query.deletedRule
    const deletedRule = deletedRuleId === undefined ? null : await deletedRuleOf(app.deps, actorOf(request), data.set.id, deletedRuleId)
    const insights = await setInsights(app.deps, actorOf(request), data.set, analyticsDays(request.query.days))
    return reply.page('adviceset/show', { ...data, deletedRule, insights, formatDate: dateFormatter(request.user!.preferences.tz) })
  })
  for (const [path, template] of [['header', '_header'], ['sidebar', '_sidebar'], ['modal/details', '_details']] as const) {
    app.get(`/adviceset/:id/show/${path}`, idRoute, async (request, reply) =>
      fragment(reply, `adviceset/${template}`, await showData(app, request, idOf(request.params))))
  }

  app.get('/adviceset/:id/edit', idRoute, async (request, reply) => reply.page('adviceset/edit', await editData(app, request, idOf(request.params))))

  app.post('/adviceset/:id/edit', idFormRoute, async (request, reply) => {
    const id = idOf(request.params)
    const body = request.body ?? {}
    // The page has two forms: the texts, and the settings (category and sharing).
    const input: AdviceSetInput = body.settings === '1'
      ? { categoryId: body.categoryId, isPublic: checkbox(body, 'isPublic'), isStarter: checkbox(body, 'isStarter') }
      : { name: body.name, nameAlt: body.nameAlt ?? '', description: body.description ?? '' }
    try {
      await updateAdviceSet(app.deps, actorOf(request), id, input)
      reply.flash({ type: 'info', text: 'Advice set saved.' })
      return reply.redirect(`/adviceset/${id}/show`, 303)
    } catch (error) {
      const data = await editData(app, request, id)
      const typed = body.settings === '1' ? { ...keptValues(body), isPublic: input.isPublic, isStarter: input.isStarter } : keptValues(body)
      return renderFormError(reply, error, 'adviceset/edit', { ...data, values: { ...data.values, ...typed } })
    }
  })

  app.post('/adviceset/:id/copy', idRoute, async (request, reply) => {
    const copy = await copyAdviceSet(app.deps, actorOf(request), idOf(request.params))
    reply.flash({ type: 'info', text: `Copied into your library as “${copy.name}”.` })
    return reply.redirect(`/adviceset/${copy.id}/show`, 303)
  })

  app.post('/adviceset/:id/transfer', idFormRoute, async (request, reply) => {
    const id = idOf(request.params)
    const body = request.body ?? {}
    try {
      await transferAdviceSet(app.deps, actorOf(request), id, { ownerId: body.ownerId })
      reply.flash({ type: 'info', text: 'Advice set transferred.' })
      return reply.redirect(`/adviceset/${id}/show`, 303)
    } catch (error) {
      return renderFormError(reply, error, 'adviceset/show', { ...(await showData(app, request, id)), values: keptValues(body) })
    }
  })

  for (const [action, linked] of [['add', true], ['remove', false]] as const) {
    app.post(`/adviceset/:id/tags/${action}`, idFormRoute, async (request, reply) => {
      const id = idOf(request.params)
      const body = request.body ?? {}
      try {
        // The picker (an owner with more tags than a select shows) sends the tag's name; the select, its id.
        if (linked && body.tagLabel !== undefined) await addAdviceSetTagNamed(app.deps, actorOf(request), id, body.tagLabel)
        else await setAdviceSetTag(app.deps, actorOf(request), id, itemId(body.tagId, 'tagId'), linked)
      } catch (error) {
        return renderFormError(reply, error, 'adviceset/show', { ...(await showData(app, request, id)), values: keptValues(body) })
      }
      reply.flash({ type: 'info', text: linked ? 'Tag added.' : 'Tag removed.' })
      return reply.redirect(`/adviceset/${id}/show`, 303)
    })
  }

  app.get('/adviceset/:id/confirm-delete', idRoute, async (request, reply) => {
    const data = await deleteData(app, request, idOf(request.params))
    return reply.page('adviceset/confirm-delete', { ...data, dependents: await findDependents(app.deps.db, ENTITY_ADVICE_SET, data.set.id) })
  })

  app.post('/adviceset/:id/delete', idRoute, async (request, reply) => {
    const id = idOf(request.params)
    const data = await deleteData(app, request, id)
    try {
      await deleteAdviceSet(app.deps, actorOf(request), id)
    } catch (error) {
      if (!(error instanceof DeleteNotAllowedError)) throw error
      reply.code(221)
      return reply.page('adviceset/confirm-delete', { ...data, dependents: error.dependents, message: error.message })
    }
    reply.flash({ type: 'info', text: `Advice set “${data.set.name}” deleted.` })
    return reply.redirect(`/library?deleted=${id}`, 303)
  })
}
