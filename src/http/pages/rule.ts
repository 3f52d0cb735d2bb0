// Rule pages (SPEC §2 Rule row): new, show (with its tree and header fragments), part/{nodeId}, confirm-delete, the
// pick-dialog fragments (selector, copyselector, apiselector: the set owner's external APIs and what each maps), and the form actions of the show page. Debug pages
// live in rule-debug.ts. Rights are checked by the services on every call.
import type { FastifyInstance, FastifyReply } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox'
import { getAdviceSet } from '../../services/library/advice-sets.ts'
import type { Actor } from '../../services/context.ts'
import { findDependents } from '../../services/authoring/dependents.ts'
import { DeleteNotAllowedError, ForbiddenError, ValidationError } from '../../services/errors.ts'
import {
  callableRules, copyTargetSets, countRuleNodes, ruleHeaderModel, ruleHref, ruleOfSet, ruleTreeModel,
} from '../../services/authoring/rule-page.ts'
import { ENTITY_RULE, copyRule, createRule, deleteRule, promoteRule, recoverRule, updateRule } from '../../services/authoring/rules.ts'
import { canCollaborateOnSet, assertCanChange, canWriteOwned, changeRefusal } from '../../services/accounts/visibility.ts'
import { apiChoicesForSet } from '../../services/integrations/external-apis.ts'
import { itemId } from '../api/ids.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { FormBody, IdParams, IdString } from '../schemas.ts'
import { keptValues, renderFormError } from './forms.ts'

const RuleParams = Type.Object({ id: IdString, ruleId: IdString })
const NodeParams = Type.Object({ id: IdString, ruleId: IdString, nodeId: IdString })
const RuleIdQuery = Type.Object({ ruleId: Type.Optional(IdString) })
const SelectorQuery = Type.Object({ q: Type.Optional(Type.String({ maxLength: 200 })) })

const setRoute = { preHandler: requireUser, schema: { params: IdParams } }
const ruleRoute = { preHandler: requireUser, schema: { params: RuleParams } }
const ruleFormRoute = { preHandler: requireUser, schema: { params: RuleParams, body: FormBody } }

const ruleIdOf = (params: Static<typeof RuleParams>) => itemId(params.ruleId, 'ruleId')

async function writableSet(app: FastifyInstance, actor: Actor, id: number) {
  const set = await getAdviceSet(app.deps, actor, id)
  if (!set.canWrite) throw new ForbiddenError(changeRefusal(actor, set.ownerId, 'advice set'))
  return set
}

/** Everything the show page and its header fragment render; `activeNodeId` comes from part/{nodeId}. */
async function showData(app: FastifyInstance, actor: Actor, params: Static<typeof RuleParams>, activeNodeId: number | null = null) {
  const rule = await ruleOfSet(app.deps, actor, itemId(params.id), ruleIdOf(params))
  const tree = await ruleTreeModel(app.deps, actor, rule, activeNodeId)
  const header = await ruleHeaderModel(app.deps, actor, rule, tree.loaded)
  const canWrite = canWriteOwned(actor, rule.set.ownerId)
  return {
    title: `${rule.name} · ${rule.set.name}`,
    rule: { id: rule.id, name: rule.name, onlyWhenCalled: rule.onlyWhenCalled },
    set: { id: rule.set.id, name: rule.set.name },
    canWrite,
    canCollaborate: canCollaborateOnSet(actor, rule.set),
    ...header,
    treeProps: tree.props,
    tree: tree.tree,
    nameEditor: {
      action: `/api/rule/${rule.id}`, method: 'PATCH',
      fields: [{ name: 'name', label: 'Rule name', value: rule.name, editor: 'input', required: true, maxLength: 200 }],
    },
    currentRule: { id: rule.id, name: rule.name },
    currentAdviceSet: { id: rule.set.id, name: rule.set.name, ownerId: rule.set.ownerId },
  }
}

/** A sub-view for islands and pick dialogs: the partial alone, escaped as everywhere else. */
async function fragment(reply: FastifyReply, template: string, data: Record<string, unknown>) {
  const html = await reply.viewAsync(template, { ...data, csrfToken: reply.generateCsrf(), user: reply.request.user, errors: {}, values: {} })
  reply.type('text/html; charset=utf-8')
  return html
}

async function deleteData(app: FastifyInstance, actor: Actor, params: Static<typeof IdParams>, ruleId: number) {
  const rule = await ruleOfSet(app.deps, actor, itemId(params.id), ruleId)
  assertCanChange(actor, rule.set.ownerId, 'rule')
  return {
    title: `Delete ${rule.name}`,
    rule: { id: rule.id, name: rule.name },
    set: { id: rule.set.id, name: rule.set.name },
    nodeCount: await countRuleNodes(app.deps, rule.id),
    currentRule: { id: rule.id },
    currentAdviceSet: { id: rule.set.id },
  }
}

export const rulePages: FastifyPluginAsyncTypebox = async (app) => {
  const newRuleData = async (actor: Actor, params: Static<typeof IdParams>) => {
    const set = await writableSet(app, actor, itemId(params.id))
    return { title: `New rule · ${set.name}`, set: { id: set.id, name: set.name }, currentAdviceSet: { id: set.id, name: set.name, ownerId: set.ownerId } }
  }

  app.get('/adviceset/:id/rule/new', setRoute, async (request, reply) => reply.page('rule/new', await newRuleData(actorOf(request), request.params)))

  app.post('/adviceset/:id/rule/new', { preHandler: requireUser, schema: { params: IdParams, body: FormBody } }, async (request, reply) => {
    const data = await newRuleData(actorOf(request), request.params)
    const body = request.body ?? {}
    try {
      const rule = await createRule(app.deps, actorOf(request), { adviceSetId: data.set.id, name: body.name })
      reply.flash({ type: 'info', text: `Rule “${rule.name}” created.` })
      return reply.redirect(ruleHref(rule.adviceSetId, rule.id), 303)
    } catch (error) {
      return renderFormError(reply, error, 'rule/new', { ...data, values: keptValues(body) })
    }
  })

  app.get('/adviceset/:id/rule/:ruleId/show', ruleRoute, async (request, reply) => reply.page('rule/show', await showData(app, actorOf(request), request.params)))
  app.get('/adviceset/:id/rule/:ruleId/part/:nodeId', { preHandler: requireUser, schema: { params: NodeParams } }, async (request, reply) =>
    reply.page('rule/show', await showData(app, actorOf(request), request.params, itemId(request.params.nodeId, 'nodeId'))))
  app.get('/adviceset/:id/rule/:ruleId/show/header', ruleRoute, async (request, reply) => fragment(reply, 'rule/_header', await showData(app, actorOf(request), request.params)))
  app.get('/adviceset/:id/rule/:ruleId/show/tree', ruleRoute, async (request, reply) => {
    const actor = actorOf(request)
    const rule = await ruleOfSet(app.deps, actor, itemId(request.params.id), ruleIdOf(request.params))
    return fragment(reply, 'rule/_tree', { tree: (await ruleTreeModel(app.deps, actor, rule)).tree, set: { id: rule.set.id } })
  })

  app.post('/adviceset/:id/rule/:ruleId/rename', ruleFormRoute, async (request, reply) => {
    const actor = actorOf(request)
    const rule = await ruleOfSet(app.deps, actor, itemId(request.params.id), ruleIdOf(request.params))
    const body = request.body ?? {}
    try {
      await updateRule(app.deps, actor, rule.id, { name: body.name })
    } catch (error) {
      return renderFormError(reply, error, 'rule/show', { ...(await showData(app, actor, request.params)), values: keptValues(body) })
    }
    reply.flash({ type: 'info', text: 'Rule renamed.' })
    return reply.redirect(ruleHref(rule.adviceSetId, rule.id), 303)
  })

  // The header's run-mode button: the rule runs only where a Rule Call calls it, or on its own too.
  app.post('/adviceset/:id/rule/:ruleId/only-when-called', ruleFormRoute, async (request, reply) => {
    const actor = actorOf(request)
    const rule = await ruleOfSet(app.deps, actor, itemId(request.params.id), ruleIdOf(request.params))
    const value = request.body?.onlyWhenCalled
    if (value !== 'true' && value !== 'false') throw new ValidationError('onlyWhenCalled', 'onlyWhenCalled: true or false.')
    const updated = await updateRule(app.deps, actor, rule.id, { onlyWhenCalled: value === 'true' })
    reply.flash({ type: 'info', text: updated.onlyWhenCalled ? `“${rule.name}” now runs only when called.` : `“${rule.name}” now runs on its own too.` })
    return reply.redirect(ruleHref(rule.adviceSetId, rule.id), 303)
  })

  // Reorder from the advice set page: one step up or down.
  app.post('/adviceset/:id/rule/:ruleId/move', ruleFormRoute, async (request, reply) => {
    const actor = actorOf(request)
    const rule = await ruleOfSet(app.deps, actor, itemId(request.params.id), ruleIdOf(request.params))
    const direction = request.body?.direction
    if (direction !== 'up' && direction !== 'down') throw new ValidationError('direction', 'direction: up or down.')
    const step = direction === 'up' ? -1 : 1
    await updateRule(app.deps, actor, rule.id, { position: Math.max(0, rule.position + step) })
    return reply.redirect(`/adviceset/${rule.adviceSetId}/show#rule-${rule.id}`, 303)
  })

  app.post('/adviceset/:id/rule/:ruleId/copy', ruleFormRoute, async (request, reply) => {
    const actor = actorOf(request)
    const rule = await ruleOfSet(app.deps, actor, itemId(request.params.id), ruleIdOf(request.params))
    const target = request.body?.adviceSetId
    const copy = await copyRule(app.deps, actor, { id: rule.id, ...(target === undefined || target === '' ? {} : { adviceSetId: itemId(target, 'adviceSetId') }) })
    reply.flash({ type: 'info', text: `Copied as “${copy.name}”.` })
    return reply.redirect(ruleHref(copy.adviceSetId, copy.id), 303)
  })

  app.post('/adviceset/:id/rule/:ruleId/promote', ruleRoute, async (request, reply) => {
    const actor = actorOf(request)
    const rule = await ruleOfSet(app.deps, actor, itemId(request.params.id), ruleIdOf(request.params))
    const promoted = await promoteRule(app.deps, actor, { id: rule.id })
    reply.flash({ type: 'info', text: `“${rule.name}” is now its own advice set; “${rule.set.name}” calls it from a rule of the same name.` })
    return reply.redirect(`/adviceset/${promoted.adviceSet.id}/show`, 303)
  })

  app.get('/adviceset/:id/rule/confirm-delete', { preHandler: requireUser, schema: { params: IdParams, querystring: RuleIdQuery } }, async (request, reply) => {
    const data = await deleteData(app, actorOf(request), request.params, itemId(request.query.ruleId, 'ruleId'))
    return reply.page('rule/confirm-delete', { ...data, dependents: await findDependents(app.deps.db, ENTITY_RULE, data.rule.id) })
  })

  app.post('/adviceset/:id/rule/:ruleId/delete', ruleRoute, async (request, reply) => {
    const data = await deleteData(app, actorOf(request), request.params, ruleIdOf(request.params))
    try {
      await deleteRule(app.deps, actorOf(request), data.rule.id)
    } catch (error) {
      if (!(error instanceof DeleteNotAllowedError)) throw error
      reply.code(221)
      return reply.page('rule/confirm-delete', { ...data, dependents: error.dependents, message: error.message })
    }
    reply.flash({ type: 'info', text: `Rule “${data.rule.name}” deleted.` })
    return reply.redirect(`/adviceset/${data.set.id}/show?deletedRule=${data.rule.id}`, 303)
  })

  app.post('/adviceset/:id/rule/:ruleId/recover', ruleRoute, async (request, reply) => {
    const rule = await recoverRule(app.deps, actorOf(request), ruleIdOf(request.params))
    reply.flash({ type: 'info', text: `Rule “${rule.name}” restored.` })
    return reply.redirect(ruleHref(rule.adviceSetId, rule.id), 303)
  })

  app.get('/adviceset/:id/rule/selector', { preHandler: requireUser, schema: { params: IdParams, querystring: SelectorQuery } }, async (request, reply) => {
    const actor = actorOf(request)
    const set = await getAdviceSet(app.deps, actor, itemId(request.params.id))
    const q = (request.query.q ?? '').trim()
    return fragment(reply, 'rule/selector', { set: { id: set.id, name: set.name }, q, ...(await callableRules(app.deps, actor, set, q)) })
  })

  app.get('/adviceset/:id/rule/copyselector', { preHandler: requireUser, schema: { params: IdParams, querystring: RuleIdQuery } }, async (request, reply) => {
    const actor = actorOf(request)
    const rule = await ruleOfSet(app.deps, actor, itemId(request.params.id), itemId(request.query.ruleId, 'ruleId'))
    return fragment(reply, 'rule/copyselector', { rule: { id: rule.id, name: rule.name }, set: { id: rule.set.id }, copyTargets: await copyTargetSets(app.deps, actor) })
  })

  app.get('/adviceset/:id/rule/apiselector', setRoute, async (request, reply) => {
    const actor = actorOf(request)
    const set = await getAdviceSet(app.deps, actor, itemId(request.params.id))
    return fragment(reply, 'rule/apiselector', { set: { id: set.id }, apis: await apiChoicesForSet(app.deps, actor, set) })
  })
}
