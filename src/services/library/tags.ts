// Tags: the provider's tags are everyone's; an owner may add its own (SPEC §3 tags, tag types).
import type { Db } from '../../db/client.ts'
import { findTagBySlug, findTagsByIds, insertTag, listTags, type TagRow } from '../../db/queries/advice-sets.ts'
import { audit } from '../audit/audit.ts'
import { PROVIDER_OWNER_ID, type Actor, type Deps } from '../context.ts'
import { ConflictError, ForbiddenError } from '../errors.ts'
import { requireOneOf, requireText } from '../validate.ts'
import { canCreate } from '../accounts/visibility.ts'

export const TAG_TYPES = ['label', 'advice_group', 'advice_type'] as const

export async function listVisibleTags(deps: Deps, actor: Actor): Promise<TagRow[]> {
  return listTags(deps.db, [...new Set([actor.ownerId, PROVIDER_OWNER_ID])])
}

export async function visibleTagIds(db: Db, ownerId: string): Promise<Set<number>> {
  return new Set((await listTags(db, [...new Set([ownerId, PROVIDER_OWNER_ID])])).map((t) => t.id))
}

export async function tagsById(db: Db, ids: number[]): Promise<Map<number, TagRow>> {
  if (ids.length === 0) return new Map()
  return new Map((await findTagsByIds(db, ids)).map((t) => [t.id, t]))
}

export function slugify(label: string): string {
  return label.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60)
}

export async function createTag(deps: Deps, actor: Actor, input: { label: unknown; type?: unknown }): Promise<TagRow> {
  if (!canCreate(actor)) throw new ForbiddenError('Viewers cannot create tags.')
  const label = requireText('label', input.label, 'Tag', 60)
  const type = input.type === undefined || input.type === '' ? 'label' : requireOneOf('type', input.type, TAG_TYPES, 'Tag type')
  const slug = slugify(label)
  if (!slug) throw new ConflictError('label', 'Tag needs at least one letter or digit.')
  if (await findTagBySlug(deps.db, actor.ownerId, slug) || await findTagBySlug(deps.db, PROVIDER_OWNER_ID, slug)) {
    throw new ConflictError('label', `A tag “${label}” already exists.`)
  }
  return deps.db.transaction(async (tx) => {
    const tag = await insertTag(tx, { ownerId: actor.ownerId, slug, label, type })
    await audit(tx, actor, { ownerId: actor.ownerId, action: 'create', entityType: 'tag', entityId: tag.id, after: { name: label, slug, type } })
    return tag
  })
}
