// The set in plain language (gen-summary, GET|POST /api/adviceset/generate-summary): the engine's summary of a source
// of the set as markdown (downloadable) and as sanitized HTML for the page.
import { renderMarkdownDocument, summarize } from '../../engine/index.ts'
import type { Actor, Deps } from '../context.ts'
import { loadSource, readableSet } from './sources.ts'

export interface SetSummary {
  adviceSet: { id: number; name: string }
  source: { key: string; label: string }
  markdown: string
  html: string
  /** A file name for the download: the set's name as a slug, the source, .md. */
  filename: string
}

function slug(text: string): string {
  return text.normalize('NFKD').replace(/[^\w\s-]/g, '').trim().toLowerCase().replace(/[\s_-]+/g, '-').slice(0, 60) || 'advice-set'
}

export async function setSummary(deps: Deps, actor: Actor, request: { adviceSetId: number; source?: string | undefined }, now = new Date()): Promise<SetSummary> {
  const set = await readableSet(deps, actor, request.adviceSetId)
  const source = await loadSource(deps, actor, set, request.source)
  const name = set.nameAlt || set.name
  const markdown = summarize({ ...source.model, name }, { note: `${source.label}, summarised on ${now.toISOString().slice(0, 10)}.` })
  return {
    adviceSet: { id: set.id, name }, source: { key: source.key, label: source.label }, markdown, html: renderMarkdownDocument(markdown),
    filename: `${slug(name)}-${source.key === 'draft' ? 'draft' : `version-${source.key}`}-summary.md`,
  }
}
