// Read models of the media and visualization pages (SPEC §2 Media and Visualizations rows): a library page, one
// supplement with its preview, facts and uses, and the edit form's values and choices.
import { SUPPLEMENT_TYPES } from '../../db/schema/index.ts'
import type { Actor, Deps } from '../context.ts'
import { NotFoundError } from '../errors.ts'
import { readableSupplement } from './access.ts'
import { canReadOwned } from '../accounts/visibility.ts'
import { isActiveContent, isRasterImage, SVG_TYPE } from './kinds.ts'
import { MAX_NODE_SUPPLEMENTS } from './links.ts'
import { absoluteLink } from './serve.ts'
import { getSupplement, LIBRARIES, libraryOf, listLibrary, type Library } from './supplements.ts'
import { MAX_UPLOAD_BYTES } from './uploads.ts'
import { TYPE_LABELS } from './validate.ts'

export const FORMAT_LABELS = { image: 'Image', file: 'Document', link: 'Link', viz: 'Visualization', buffer: 'Text' } as const

/** "2.4 MB", "830 KB", "12 bytes". */
export function sizeLabel(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`
  return `${bytes} byte${bytes === 1 ? '' : 's'}`
}

/** How a supplement is shown: an image (raster or SVG, both safe in <img>), a sandboxed frame, a link card, or a download. */
export type PreviewKind = 'image' | 'frame' | 'link' | 'file'

function previewOf(s: { format: string; contentType: string }): PreviewKind {
  if (s.format === 'link') return 'link'
  if (isRasterImage(s.contentType) || s.contentType === SVG_TYPE) return 'image'
  return isActiveContent(s.contentType) ? 'frame' : 'file'
}

export function libraryMeta(library: Library) {
  return { key: library, ...LIBRARIES[library] }
}

export async function libraryPage(deps: Deps, actor: Actor, library: Library, query: { q?: string; page?: number }) {
  const result = await listLibrary(deps, actor, { library, text: query.q, page: query.page ?? 1 })
  return {
    library: libraryMeta(library),
    ...result,
    entries: result.entries.map((entry) => ({
      ...entry, formatLabel: FORMAT_LABELS[entry.format], sizeLabel: entry.format === 'link' ? '' : sizeLabel(entry.size),
      byline: entry.ownerId === actor.ownerId ? null : entry.ownerName,
    })),
  }
}

export async function supplementPage(deps: Deps, actor: Actor, library: Library, id: number) {
  const row = await readableSupplement(deps.db, actor, id)
  if (libraryOf(row.format) !== library) throw new NotFoundError(`No ${library === 'media' ? 'media item' : 'visualization'} with this id`)
  const supplement = await getSupplement(deps, actor, id)
  const base = LIBRARIES[library].path
  return {
    library: libraryMeta(library),
    supplement,
    preview: previewOf(row),
    formatLabel: FORMAT_LABELS[row.format],
    typeLabel: TYPE_LABELS[row.type],
    sizeLabel: row.format === 'link' ? '' : sizeLabel(row.size),
    viewUrl: `/api/supplements/${id}/view`,
    downloadUrl: `/api/supplements/${id}/view?format=download`,
    frameUrl: `${base}/${id}/iframe`,
    // The link that opens it without signing in is its owner's to hand out (and the provider's shared ones').
    shareLink: canReadOwned(actor, row.ownerId) ? absoluteLink(deps, row) : null,
  }
}

/** Choices of the upload and edit forms. */
export function formChoices(library: Library) {
  return {
    library: libraryMeta(library),
    typeOptions: SUPPLEMENT_TYPES.map((type) => ({ value: type, label: TYPE_LABELS[type] })),
    maxBytes: MAX_UPLOAD_BYTES,
    maxSourcesPerNode: MAX_NODE_SUPPLEMENTS,
  }
}
