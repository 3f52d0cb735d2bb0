// Entity cards (SPEC §2 Card row): /card/{type} (a new entry of that type), /card/{type}/{id} (read) and
// /card/{type}/{id}/edit, for the dictionary page's dialog and the rule pages' modals. Each is a page (entity-page);
// `?fragment=1` gives the card alone (no layout, root data-fragment="entity-card") for a modal to show.
// Forms post here without JavaScript; the dictionary-editor island saves the same fields through /api/entity.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox'
import { ENTITY_TYPES } from '../../engine/index.ts'
import type { Actor } from '../../services/context.ts'
import { DATA_TYPE_CHOICES, dictionaryCard, dictionaryChoices, isKind, type DictionaryEntry, type Kind } from '../../services/authoring/dictionary-page.ts'
import { createEntity, deleteEntity, updateEntity, type EntityInput } from '../../services/authoring/entities.ts'
import { DeleteNotAllowedError, ForbiddenError, NotFoundError } from '../../services/errors.ts'
import { itemId } from '../api/ids.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'
import { announceEntityCreated, announceEntityDeleted } from '../plugins/entity-announcements.ts'
import { FormBody, IdString, StringEnum } from '../schemas.ts'
import { keptValues, renderFormError } from './forms.ts'
import { countOf } from '../format.ts'
import { changeRefusal } from '../../services/accounts/visibility.ts'
import { forgetDecisionSettingsAfterWrites } from '../decision-settings.ts'

type Body = Record<string, unknown>

const TypeParams = Type.Object({ type: Type.String({ maxLength: 20 }) })
const EntityParams = Type.Object({ type: Type.String({ maxLength: 20 }), entityId: IdString })
const CardQuery = Type.Object({ fragment: Type.Optional(StringEnum(['1'])) })

function kindParam(params: Static<typeof TypeParams>): Kind {
  if (!isKind(params.type)) throw new NotFoundError('Cards exist for the types variable and formula.')
  return params.type
}

function entityIdParam(params: Static<typeof EntityParams>): number {
  kindParam(params)
  return itemId(params.entityId)
}

function cardUrl(entry: { kind: Kind; id: number }, action = ''): string {
  return `/card/${entry.kind}/${entry.id}${action ? `/${action}` : ''}`
}

/** The default value as typed in a form: lists comma-separated, anything else as text. */
function defaultText(value: unknown): string {
  if (value === null || value === undefined) return ''
  return Array.isArray(value) ? value.join(', ') : String(value)
}

interface EntityFormValues {
  kind: Kind; reservedName: string; dataType: string; validOptions: string; isClosedSet: boolean; displayFormat: string
  defaultValue: string; expression: string; isConstant: boolean; personal: boolean; description: string; adviceSetId: string
}

function formValuesOf(entry: DictionaryEntry): EntityFormValues {
  return {
    kind: entry.kind, reservedName: entry.name, dataType: entry.dataType ?? '', validOptions: entry.options.join('\n'), isClosedSet: entry.isClosedSet,
    displayFormat: entry.displayFormat ?? '', defaultValue: defaultText(entry.defaultValue), expression: entry.expression ?? '',
    isConstant: entry.isConstant, personal: entry.personal, description: entry.description, adviceSetId: entry.adviceSetId === null ? '' : String(entry.adviceSetId),
  }
}

const text = (body: Body, key: string) => (typeof body[key] === 'string' ? body[key] : '')

/** What the form posts, as the dictionary service reads it (the same mapping as the island's, for the API). */
function entityInputFrom(body: Body, fallbackKind: Kind): EntityInput {
  const kind = isKind(body.kind) ? body.kind : fallbackKind
  const defaultValue = text(body, 'defaultValue')
  return {
    entityTypeId: ENTITY_TYPES[kind].id,
    reservedName: text(body, 'reservedName'),
    dataType: text(body, 'dataType') || null,
    validOptions: text(body, 'validOptions').split(/\r?\n/).map((o) => o.trim()).filter(Boolean),
    isClosedSet: body.isClosedSet !== undefined,
    displayFormat: text(body, 'displayFormat').trim() || null,
    defaultValue: defaultValue.trim() === '' ? null : defaultValue,
    expression: kind === 'formula' ? text(body, 'expression').trim() || null : null,
    isConstant: body.isConstant !== undefined,
    // The form offers the flag only for variables (formulas cannot be personal): a formula saved from it is not.
    personal: kind === 'variable' && body.personal !== undefined,
    description: text(body, 'description'),
    adviceSetId: text(body, 'adviceSetId') === '' ? null : text(body, 'adviceSetId'),
  }
}

/** The typed values back into the form after an error (checkboxes absent = unticked). */
function typedValues(body: Body, kind: Kind): EntityFormValues {
  const kept = keptValues(body)
  return {
    kind: isKind(kept.kind) ? kept.kind : kind, reservedName: text(kept, 'reservedName'), dataType: text(kept, 'dataType'),
    validOptions: text(kept, 'validOptions'), isClosedSet: kept.isClosedSet !== undefined, displayFormat: text(kept, 'displayFormat'),
    defaultValue: text(kept, 'defaultValue'), expression: text(kept, 'expression'), isConstant: kept.isConstant !== undefined, personal: kept.personal !== undefined,
    description: text(kept, 'description'), adviceSetId: text(kept, 'adviceSetId'),
  }
}

/** Renders the card page, or the card alone for a modal. */
async function renderCard(reply: FastifyReply, query: Static<typeof CardQuery>, view: 'show' | 'edit', data: Record<string, unknown>) {
  if (query.fragment !== '1') return reply.page(`card/${view}`, data)
  const html = await reply.viewAsync('card/fragment', {
    errors: {}, values: {}, ...data, view, csrfToken: reply.generateCsrf(), user: reply.request.user,
  })
  reply.type('text/html; charset=utf-8')
  return html
}

export const cardPages: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps
  // A personal flag set or cleared here counts from the Advice API's next answer on.
  forgetDecisionSettingsAfterWrites(app)

  async function formData(request: FastifyRequest, kind: Kind, entry?: DictionaryEntry & { ownerName: string }) {
    const actor = actorOf(request)
    const choices = await dictionaryChoices(deps, actor, entry?.ownerId, entry?.adviceSetId ?? null)
    const typeName = ENTITY_TYPES[kind].displayName
    const values = formValuesOf(entry ?? emptyEntry(kind))
    return {
      title: entry ? `Edit ${entry.name}` : `New ${typeName.toLowerCase()}`,
      kind, typeName, entry: entry ?? null, values, adviceSets: choices.ownSets, dataTypes: DATA_TYPE_CHOICES,
      action: entry ? cardUrl(entry, 'edit') : `/card/${kind}`,
      editorProps: {
        entityId: entry?.id ?? null, values, adviceSets: choices.ownSets, dataTypes: DATA_TYPE_CHOICES,
      },
    }
  }

  async function readable(actor: Actor, params: Static<typeof EntityParams>) {
    return dictionaryCard(deps, actor, entityIdParam(params))
  }

  async function writable(actor: Actor, params: Static<typeof EntityParams>) {
    const entry = await readable(actor, params)
    if (!entry.canWrite) throw new ForbiddenError(changeRefusal(actor, entry.ownerId, 'dictionary entry'))
    return entry
  }

  const typeRoute = { preHandler: requireUser, schema: { params: TypeParams, querystring: CardQuery } }
  const entityRoute = { preHandler: requireUser, schema: { params: EntityParams, querystring: CardQuery } }

  app.get('/card/:type', typeRoute, async (request, reply) => {
    const kind = kindParam(request.params)
    if (!(await dictionaryChoices(deps, actorOf(request))).canCreate) throw new ForbiddenError('Viewers cannot add to the dictionary. Ask an admin of your team to make you an author.')
    return renderCard(reply, request.query, 'edit', await formData(request, kind))
  })

  app.post('/card/:type', { preHandler: requireUser, schema: { params: TypeParams, body: FormBody } }, async (request, reply) => {
    const kind = kindParam(request.params)
    const body = request.body ?? {}
    try {
      const created = await createEntity(deps, actorOf(request), entityInputFrom(body, kind))
      const entry = { kind: isKind(body.kind) ? body.kind : kind, id: created.id }
      announceEntityCreated(request, created)
      reply.flash({ type: 'info', text: `${ENTITY_TYPES[entry.kind].displayName} ${created.reservedName} added to the dictionary.` })
      return reply.redirect(cardUrl(entry), 303)
    } catch (error) {
      return renderFormError(reply, error, 'card/edit', { ...(await formData(request, kind)), values: typedValues(body, kind) })
    }
  })

  app.get('/card/:type/:entityId', entityRoute, async (request, reply) => {
    const entry = await readable(actorOf(request), request.params)
    return renderCard(reply, request.query, 'show', { title: entry.name, entry })
  })

  app.get('/card/:type/:entityId/edit', entityRoute, async (request, reply) => {
    const entry = await writable(actorOf(request), request.params)
    return renderCard(reply, request.query, 'edit', await formData(request, entry.kind, entry))
  })

  app.post('/card/:type/:entityId/edit', { preHandler: requireUser, schema: { params: EntityParams, body: FormBody } }, async (request, reply) => {
    const entry = await writable(actorOf(request), request.params)
    const body = request.body ?? {}
    try {
      const saved = await updateEntity(deps, actorOf(request), entry.id, entityInputFrom(body, entry.kind))
      const renamed = saved.entity.reservedName !== entry.name
      reply.flash({ type: 'info', text: saved.typeChanged
        ? `This item was changed to a ${saved.entityType?.displayName ?? ''} entity.`
        : renamed ? `Renamed to ${saved.entity.reservedName}; ${countOf(saved.rewritten.nodes.length + saved.rewritten.entities.length, 'use')} rewritten.` : 'Saved.' })
      return reply.redirect(cardUrl({ kind: saved.entity.entityTypeId === ENTITY_TYPES.formula.id ? 'formula' : 'variable', id: entry.id }), 303)
    } catch (error) {
      return renderFormError(reply, error, 'card/edit', { ...(await formData(request, entry.kind, entry)), values: typedValues(body, entry.kind) })
    }
  })

  app.post('/card/:type/:entityId/delete', { preHandler: requireUser, schema: { params: EntityParams } }, async (request, reply) => {
    const entry = await writable(actorOf(request), request.params)
    try {
      await deleteEntity(deps, actorOf(request), entry.id)
    } catch (error) {
      if (!(error instanceof DeleteNotAllowedError)) throw error
      reply.code(221)
      // The service's dependents are these same uses; the card's list links each node to its place in the rule.
      return reply.page('card/show', { title: entry.name, entry, refusal: error.message })
    }
    announceEntityDeleted(request, entry.id)
    reply.flash({ type: 'info', text: `${entry.typeDisplayName} ${entry.name} deleted. It can be restored from Activity.` })
    return reply.redirect('/admin/dictionary', 303)
  })
}


function emptyEntry(kind: Kind): DictionaryEntry {
  return {
    id: 0, name: '', kind, entityTypeId: ENTITY_TYPES[kind].id, typeDisplayName: ENTITY_TYPES[kind].displayName, dataType: null, dataTypeLabel: '',
    options: [], isClosedSet: false, displayFormat: null, defaultValue: null, expression: null, isConstant: false, personal: false, description: '',
    adviceSetId: null, adviceSetName: null, ownerId: '', canWrite: true, useCount: 0, uses: [],
  }
}
