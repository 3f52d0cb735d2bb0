// What a decision record's node ids mean, in words: read from the snapshot of the version the record names (not the
// working draft, which may have changed or lost those nodes since). Advice items show their headline, conditions their
// expression, questions their variable.
import type { Db } from '../../db/client.ts'
import { findVersion } from '../../db/queries/versions.ts'
import type { NodeModel } from '../../engine/index.ts'
import type { VersionSnapshot } from '../publishing/versions.ts'

export interface NodeLabel { type: string; headline?: string; expression?: string; variable?: string; question?: string }
export type VersionLabels = ReadonlyMap<string, NodeLabel>

const NO_LABELS: VersionLabels = new Map()

/**
 * Versions are immutable, so their labels are worked out once per database and kept (a bounded number: a page names
 * few versions, and a snapshot is large to read again for every page of records).
 */
const cache = new WeakMap<Db, Map<number, VersionLabels>>()
const KEPT_PER_DB = 32

export async function versionLabels(db: Db, versionId: number): Promise<VersionLabels> {
  let kept = cache.get(db)
  if (!kept) cache.set(db, kept = new Map())
  const known = kept.get(versionId)
  if (known) return known
  const version = await findVersion(db, versionId)
  const labels = version ? labelsOf(version.snapshot as VersionSnapshot) : NO_LABELS
  if (kept.size >= KEPT_PER_DB) kept.delete(kept.keys().next().value!)
  kept.set(versionId, labels)
  return labels
}

/** Labels of several versions at once (a page of records), by version id. */
export async function labelsOfVersions(db: Db, versionIds: Iterable<number>): Promise<Map<number, VersionLabels>> {
  const out = new Map<number, VersionLabels>()
  for (const id of new Set(versionIds)) out.set(id, await versionLabels(db, id))
  return out
}

function labelsOf(snapshot: VersionSnapshot): VersionLabels {
  const labels = new Map<string, NodeLabel>()
  const visit = (node: NodeModel) => {
    labels.set(node.id, {
      type: node.type,
      ...(node.headline !== undefined ? { headline: node.headline } : {}),
      ...(node.expression !== undefined ? { expression: node.expression } : {}),
      ...(node.variable !== undefined ? { variable: node.variable } : {}),
      ...(node.question !== undefined ? { question: node.question } : {}),
    })
    node.children.forEach(visit)
  }
  for (const rule of [...snapshot.model.rules, ...(snapshot.model.externalRules ?? [])]) rule.nodes.forEach(visit)
  return labels
}

/** The advice items a version can give (for the "advice given" filter), by headline. */
export function adviceNodesOf(labels: VersionLabels): Array<{ nodeId: string; headline: string }> {
  return [...labels].filter(([, label]) => label.type === 'advice').map(([nodeId, label]) => ({ nodeId, headline: label.headline || `Advice ${nodeId}` }))
}
