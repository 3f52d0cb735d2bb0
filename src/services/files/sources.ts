// Supplements as the sources of advice (SPEC §3 Supplement, DESIGN "Files"). A supplement linked to an advice node is
// one of the node's sources in the engine model, joined when the model is built, so every content type of the
// Advice API, the debugger and the embed carry it, and a version's snapshot keeps what was linked when it was made.
// Links are kept relative to the app in the model (a snapshot then survives a change of address) and made absolute
// where advice leaves the app for partners (delivery/cache.ts).
import type { AdviceSetModel, NodeModel, SourceRef } from '../../engine/index.ts'
import type { SupplementRow } from '../../db/queries/supplements.ts'

const SOURCE_ID_PREFIX = 'supplement-'

/** Where a supplement's content opens without signing in: a link's page, a visualization's sandboxed frame, the file. */
export function openPath(row: Pick<SupplementRow, 'id' | 'format' | 'url' | 'accessToken'>): string {
  if (row.format === 'link') return row.url ?? ''
  const token = encodeURIComponent(row.accessToken)
  return row.format === 'viz' ? `/visualizations/${row.id}/iframe?token=${token}` : `/api/supplements/${row.id}/view?token=${token}`
}

export function sourceOf(row: SupplementRow): SourceRef {
  return { id: `${SOURCE_ID_PREFIX}${row.id}`, name: row.name, uri: openPath(row) }
}

/** The supplement id behind a source of a model, or null for a source typed into the node itself. */
function supplementIdOfSource(source: SourceRef): number | null {
  if (!source.id.startsWith(SOURCE_ID_PREFIX)) return null
  const id = Number(source.id.slice(SOURCE_ID_PREFIX.length))
  return Number.isSafeInteger(id) && id > 0 ? id : null
}

/** A model node's sources apart: those typed into the node, and the supplements linked to it. */
export function splitSources(sources: SourceRef[]): { own: SourceRef[]; supplementIds: number[] } {
  const own: SourceRef[] = []
  const supplementIds: number[] = []
  for (const source of sources) {
    const id = supplementIdOfSource(source)
    if (id === null) own.push(source)
    else supplementIds.push(id)
  }
  return { own, supplementIds }
}

/** A node's own sources followed by its linked supplements, each once. */
export function withLinkedSources(own: SourceRef[], linked: SupplementRow[] | undefined): SourceRef[] {
  if (!linked || linked.length === 0) return own
  const seen = new Set(own.map((s) => s.id))
  return [...own, ...linked.map(sourceOf).filter((s) => !seen.has(s.id) && seen.add(s.id))]
}

/** The model with every app-relative source link made absolute against `baseUrl`. */
export function withAbsoluteSourceLinks(model: AdviceSetModel, baseUrl: string): AdviceSetModel {
  const absolute = (source: SourceRef): SourceRef => (source.uri?.startsWith('/') ? { ...source, uri: `${baseUrl}${source.uri}` } : source)
  const node = (n: NodeModel): NodeModel => ({ ...n, ...(n.sources ? { sources: n.sources.map(absolute) } : {}), children: n.children.map(node) })
  const rules = (list: AdviceSetModel['rules']) => list.map((rule) => ({ ...rule, nodes: rule.nodes.map(node) }))
  return { ...model, rules: rules(model.rules), ...(model.externalRules ? { externalRules: rules(model.externalRules) } : {}) }
}
