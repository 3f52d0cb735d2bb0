// Advice categories (SPEC §3 "collection of advice sets"): an owner's folders for its library.
import { countAdviceSetsInCategory, findCategory, insertCategory, listCategories, updateCategory as updateCategoryRow, type CategoryRow } from '../../db/queries/advice-sets.ts'
import { audit } from '../audit/audit.ts'
import { PROVIDER_OWNER_ID, isProviderAdmin, type Actor, type Deps } from '../context.ts'
import { assertNoDependents, registerDependentCheck } from '../authoring/dependents.ts'
import { ForbiddenError, NotFoundError, ValidationError } from '../errors.ts'
import { optionalText, requireText } from '../validate.ts'
import { assertCanChange, canCreate, canWriteOwned } from '../accounts/visibility.ts'

export const ENTITY_CATEGORY = 'category'

// A category that still holds advice sets is not deleted: the sets are its dependents.
registerDependentCheck(ENTITY_CATEGORY, async (db, id) =>
  (await countAdviceSetsInCategory(db, id)).map((s) => ({ type: 'adviceset', id: s.id, name: s.name, uri: `/adviceset/${s.id}/show` })))

function snapshot(c: CategoryRow) {
  return { id: c.id, ownerId: c.ownerId, name: c.name, description: c.description, deleted: c.deletedAt !== null }
}

/** The actor's own categories (and the provider's, which the library can filter by). */
export async function listVisibleCategories(deps: Deps, actor: Actor): Promise<CategoryRow[]> {
  return listCategories(deps.db, [...new Set([actor.ownerId, PROVIDER_OWNER_ID])])
}

export async function getCategory(deps: Deps, actor: Actor, id: number): Promise<CategoryRow> {
  const category = await findCategory(deps.db, id)
  if (!category || (category.ownerId !== actor.ownerId && category.ownerId !== PROVIDER_OWNER_ID && !isProviderAdmin(actor))) {
    throw new NotFoundError('No category with this id')
  }
  return category
}

async function writableCategory(deps: Deps, actor: Actor, id: number, includeDeleted = false): Promise<CategoryRow> {
  const category = await findCategory(deps.db, id, { includeDeleted })
  if (!category || (category.ownerId !== actor.ownerId && !isProviderAdmin(actor))) throw new NotFoundError('No category with this id')
  assertCanChange(actor, category.ownerId, 'category')
  return category
}

export async function createCategory(deps: Deps, actor: Actor, input: { name: unknown; description?: unknown }): Promise<CategoryRow> {
  if (!canCreate(actor)) throw new ForbiddenError('Viewers cannot create categories. Ask an admin of your team to make you an author.')
  const name = requireText('name', input.name, 'Category name', 120)
  const description = optionalText('description', input.description, 'Description', 2000, 'multiline')
  return deps.db.transaction(async (tx) => {
    const category = await insertCategory(tx, { ownerId: actor.ownerId, name, description })
    await audit(tx, actor, { ownerId: actor.ownerId, action: 'create', entityType: ENTITY_CATEGORY, entityId: category.id, after: snapshot(category) })
    return category
  })
}

export async function updateCategory(deps: Deps, actor: Actor, id: number, input: { name?: unknown; description?: unknown }): Promise<CategoryRow> {
  const category = await writableCategory(deps, actor, id)
  const changes: { name?: string; description?: string } = {}
  if (input.name !== undefined) changes.name = requireText('name', input.name, 'Category name', 120)
  if (input.description !== undefined) changes.description = optionalText('description', input.description, 'Description', 2000, 'multiline')
  if (Object.keys(changes).length === 0) throw new ValidationError('name', 'Nothing to change: send name or description.')
  return deps.db.transaction(async (tx) => {
    const updated = await updateCategoryRow(tx, id, changes)
    await audit(tx, actor, { ownerId: category.ownerId, action: 'update', entityType: ENTITY_CATEGORY, entityId: id, before: snapshot(category), after: snapshot(updated) })
    return updated
  })
}

export async function deleteCategory(deps: Deps, actor: Actor, id: number): Promise<void> {
  const category = await writableCategory(deps, actor, id)
  await assertNoDependents(deps.db, ENTITY_CATEGORY, id, `The category “${category.name}”`)
  await deps.db.transaction(async (tx) => {
    const deleted = await updateCategoryRow(tx, id, { deletedAt: new Date() })
    await audit(tx, actor, { ownerId: category.ownerId, action: 'delete', entityType: ENTITY_CATEGORY, entityId: id, before: snapshot(category), after: snapshot(deleted) })
  })
}

/** Puts a category back as a snapshot describes it (used by the activity log's restore). */
export async function restoreCategorySnapshot(deps: Deps, actor: Actor, id: number, target: ReturnType<typeof snapshot> | null): Promise<void> {
  const current = await writableCategory(deps, actor, id, true)
  await deps.db.transaction(async (tx) => {
    const restored = await updateCategoryRow(tx, id, target
      ? { name: target.name, description: target.description, deletedAt: target.deleted ? new Date() : null }
      : { deletedAt: new Date() })
    await audit(tx, actor, { ownerId: current.ownerId, action: 'restore', entityType: ENTITY_CATEGORY, entityId: id, before: snapshot(current), after: snapshot(restored) })
  })
}
