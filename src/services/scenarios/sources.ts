// What the testing tools (generated branches, compare, summary) run on: a "source" of an advice set, either its
// working draft (as stored now) or one of its versions (the snapshot it froze). Spelled in requests as `draft`,
// `published` or a version id. Readers of a set may use its draft; versions are its owner's team's business
// (publishing/versions.ts teamSet), so anyone else is told the version does not exist.
import { findAdviceSet, type AdviceSetRow } from '../../db/queries/advice-sets.ts'
import { findVersion, findVersionInState, listVersions } from '../../db/queries/versions.ts'
import type { AdviceSetModel } from '../../engine/index.ts'
import { buildAdviceSetModel } from '../authoring/advice-set-model.ts'
import { canCollaborateOnSet, canReadSet } from '../accounts/visibility.ts'
import type { Actor, Deps } from '../context.ts'
import { NotFoundError, ValidationError } from '../errors.ts'
import { entitiesInUse, type VersionSnapshot } from '../publishing/snapshot.ts'

export interface LoadedSource {
  /** How requests spell it: `draft` or the version id. */
  key: string
  /** "Working draft", "Version 3 (published)". */
  label: string
  versionId: number | null
  model: AdviceSetModel
}

export interface SourceChoice { value: string; label: string }

export async function readableSet(deps: Deps, actor: Actor, adviceSetId: number): Promise<AdviceSetRow> {
  const set = await findAdviceSet(deps.db, adviceSetId)
  if (!set || !canReadSet(actor, set)) throw new NotFoundError('No advice set with this id')
  return set
}

/** The owner's team (and provider admins) see a set's versions; other readers only its draft. */
export function seesVersions(actor: Actor, set: Pick<AdviceSetRow, 'ownerId'>): boolean {
  return canCollaborateOnSet(actor, set)
}

function versionLabel(version: { number: number; state: string }): string {
  return `Version ${version.number} (${version.state})`
}

/** The set's working draft as the engine runs it, with only the dictionary entries it uses (as a snapshot keeps). */
export async function draftSource(deps: Deps, set: AdviceSetRow): Promise<LoadedSource> {
  const model = await buildAdviceSetModel(deps.db, set.id)
  return { key: 'draft', label: 'Working draft', versionId: null, model: { ...model, entities: entitiesInUse(model) } }
}

/** `raw` (draft when absent) of a set the actor can read; a bad or unknown source is refused naming `field`. */
export async function loadSource(deps: Deps, actor: Actor, set: AdviceSetRow, raw: string | undefined, field = 'source'): Promise<LoadedSource> {
  const text = (raw ?? '').trim()
  if (text === '' || text === 'draft') return draftSource(deps, set)
  const refuse = (message: string) => new ValidationError(field, `${field}: ${message}`)
  if (text === 'published') {
    const published = seesVersions(actor, set) ? await findVersionInState(deps.db, set.id, 'published') : undefined
    if (!published) throw refuse('nothing of this advice set is published yet.')
    return { key: String(published.id), label: versionLabel(published), versionId: published.id, model: (published.snapshot as VersionSnapshot).model }
  }
  if (!/^\d{1,15}$/.test(text)) throw refuse('must be "draft", "published" or the id of a version of this advice set.')
  const version = seesVersions(actor, set) ? await findVersion(deps.db, Number(text)) : undefined
  if (!version || version.adviceSetId !== set.id) throw refuse(`there is no version ${text} of this advice set.`)
  return { key: String(version.id), label: versionLabel(version), versionId: version.id, model: (version.snapshot as VersionSnapshot).model }
}

/** What a form may offer: the draft, then the set's versions newest first (to its team). */
export async function sourceChoices(deps: Deps, actor: Actor, set: AdviceSetRow): Promise<SourceChoice[]> {
  const choices: SourceChoice[] = [{ value: 'draft', label: 'Working draft' }]
  if (seesVersions(actor, set)) for (const version of await listVersions(deps.db, set.id)) choices.push({ value: String(version.id), label: versionLabel(version) })
  return choices
}

/** The published version's id, if the actor may see it and there is one. */
export async function publishedKey(deps: Deps, actor: Actor, set: AdviceSetRow): Promise<string | null> {
  if (!seesVersions(actor, set)) return null
  const published = await findVersionInState(deps.db, set.id, 'published')
  return published ? String(published.id) : null
}
