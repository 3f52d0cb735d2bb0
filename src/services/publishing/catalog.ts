// The catalog (SPEC §7 catalog): published advice sets a signed-in user may read, their versions and their advice.
// Readers of another owner's set see only versions that were published; the set's own team sees every version.
import { findAdviceSet } from '../../db/queries/advice-sets.ts'
import { findVersionInState, listPublishedSets, listVersions, type VersionSummaryRow } from '../../db/queries/versions.ts'
import type { NodeModel } from '../../engine/index.ts'
import type { Actor, Deps } from '../context.ts'
import { NotFoundError } from '../errors.ts'
import { canCollaborateOnSet, canReadSet, setVisibility } from '../accounts/visibility.ts'
import { contentSummary } from './diff.ts'
import type { VersionSnapshot } from './snapshot.ts'
import { versionWithSet } from './workflow.ts'

function publicView(v: VersionSummaryRow) {
  return { id: v.id, adviceSetId: v.adviceSetId, number: v.number, state: v.state, notes: v.notes, contentHash: v.contentHash, publishedAt: v.publishedAt, unpublishedAt: v.unpublishedAt, createdAt: v.createdAt }
}

/** Published sets the actor may read, by name. */
export async function catalogIndex(deps: Deps, actor: Actor) {
  return (await listPublishedSets(deps.db, { visibility: setVisibility(actor) })).map((r) => ({
    id: r.adviceSetId, ownerId: r.ownerId, name: r.name, nameAlt: r.nameAlt, description: r.description, isPublic: r.isPublic,
    publishedVersion: { id: r.versionId, number: r.versionNumber, publishedAt: r.publishedAt },
  }))
}

/** The published version of every set the actor may read. */
export async function catalogVersions(deps: Deps, actor: Actor) {
  return (await listPublishedSets(deps.db, { visibility: setVisibility(actor) })).map((r) => ({
    id: r.versionId, number: r.versionNumber, publishedAt: r.publishedAt, adviceSet: { id: r.adviceSetId, name: r.name, nameAlt: r.nameAlt },
  }))
}

/** One version with what it holds; a version that was never published is only for the set's team. */
export async function catalogVersion(deps: Deps, actor: Actor, versionId: number) {
  const { version, set } = await versionWithSet(deps.db, actor, versionId)
  if (!canCollaborateOnSet(actor, set) && version.publishedAt === null) throw new NotFoundError('No version with this id')
  const { snapshot: _snapshot, ...summary } = version
  return { ...publicView(summary), content: contentSummary(version.snapshot as VersionSnapshot) }
}

async function readableSet(deps: Deps, actor: Actor, adviceSetId: number) {
  const set = await findAdviceSet(deps.db, adviceSetId)
  if (!set || !canReadSet(actor, set)) throw new NotFoundError('No advice set with this id')
  return set
}

/** The advice items of the published version, in tree order, with the rule they belong to. */
export async function catalogAdvice(deps: Deps, actor: Actor, adviceSetId: number) {
  const set = await readableSet(deps, actor, adviceSetId)
  const published = await findVersionInState(deps.db, set.id, 'published')
  if (!published) throw new NotFoundError('This advice set has no published version')
  const snapshot = published.snapshot as VersionSnapshot
  const advice: Array<{ nodeId: string; rule: { id: string; name: string }; headline: string; text: string; tags: string[] }> = []
  for (const rule of snapshot.model.rules) {
    const visit = (nodes: NodeModel[]) => nodes.forEach((node) => {
      if (node.type === 'advice') advice.push({ nodeId: node.id, rule: { id: rule.id, name: rule.name }, headline: node.headline ?? '', text: node.text ?? '', tags: node.tags ?? [] })
      visit(node.children)
    })
    visit(rule.nodes)
  }
  return { adviceSet: snapshot.adviceSet, version: { id: published.id, number: published.number, publishedAt: published.publishedAt }, advice }
}

/** The set's versions, newest first: every one for its team, the published ones (now or before) for other readers. */
export async function catalogAdviceVersions(deps: Deps, actor: Actor, adviceSetId: number) {
  const set = await readableSet(deps, actor, adviceSetId)
  const versions = await listVersions(deps.db, set.id)
  return (canCollaborateOnSet(actor, set) ? versions : versions.filter((v) => v.publishedAt !== null)).map(publicView)
}
