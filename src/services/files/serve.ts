// Opening a supplement's content (SPEC §7 supplements {id}/view and the /…/iframe pages). What is sent, and how, is
// decided here; the HTTP layer only writes it out (http/file-reply.ts). Raster images show inline; everything else
// is an attachment, except that the iframe pages show HTML and SVG inline inside a sandbox (no scripts in our origin).
import type { Readable } from 'node:stream'
import type { SupplementRow } from '../../db/queries/supplements.ts'
import type { Deps } from '../context.ts'
import { NotFoundError } from '../errors.ts'
import { viewableSupplement, type Viewer } from './access.ts'
import { isActiveContent, isRasterImage } from './kinds.ts'
import { libraryOf, type Library } from './supplements.ts'
import { openPath } from './sources.ts'
import { thumbnailOf, thumbnailSize } from './thumbnails.ts'

export interface ServedFile {
  kind: 'file'
  stream: Readable
  size: number
  contentType: string
  filename: string
  /** Shown by the browser rather than downloaded. */
  inline: boolean
  /** Markup that runs scripts: shown only inside the `sandbox` content security policy. */
  sandboxed: boolean
  /** Anyone with the link may embed it (a token request: the source of published advice). */
  shared: boolean
}

export type ViewAnswer = ServedFile | { kind: 'redirect'; url: string } | { kind: 'link'; url: string }

export interface ViewOptions {
  /** `download` forces an attachment; `link` answers the absolute address to open or copy. */
  format?: 'original' | 'download' | 'link'
  thumbnail?: string
}

function filenameOf(row: SupplementRow): string {
  const safe = row.name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').trim() || 'file'
  return row.fileExt && !safe.toLowerCase().endsWith(`.${row.fileExt}`) ? `${safe}.${row.fileExt}` : safe
}

async function original(deps: Deps, row: SupplementRow): Promise<{ stream: Readable; size: number }> {
  const stored = row.storageKey ? await deps.files.read(row.storageKey) : null
  if (!stored) throw new NotFoundError('The file of this supplement is missing from the file store.')
  return stored
}

/** The absolute address that opens the supplement for anyone holding it (Open and Copy link). */
export function absoluteLink(deps: Deps, row: SupplementRow): string {
  const path = openPath(row)
  return path.startsWith('/') ? `${deps.config.baseUrl}${path}` : path
}

/** GET /api/supplements/{id}/view: the file, its thumbnail, or its absolute link; a link supplement redirects to its page. */
export async function viewSupplement(deps: Deps, viewer: Viewer, id: number, opts: ViewOptions = {}): Promise<ViewAnswer> {
  const row = await viewableSupplement(deps.db, viewer, id)
  if (opts.format === 'link') return { kind: 'link', url: absoluteLink(deps, row) }
  if (row.format === 'link') return { kind: 'redirect', url: row.url ?? '/' }
  const shared = 'token' in viewer
  if (opts.thumbnail !== undefined) {
    const thumbnail = await thumbnailOf(deps.files, row, thumbnailSize(opts.thumbnail))
    return { kind: 'file', ...thumbnail, contentType: 'image/jpeg', filename: `${filenameOf(row)}.jpg`, inline: true, sandboxed: false, shared }
  }
  const inline = opts.format !== 'download' && isRasterImage(row.contentType)
  return { kind: 'file', ...(await original(deps, row)), contentType: row.contentType, filename: filenameOf(row), inline, sandboxed: !inline, shared }
}

/**
 * /media/{id}/iframe and /visualizations/{id}/iframe: the content for a frame. HTML and SVG are shown inline only in
 * a frame (`Sec-Fetch-Dest: iframe`), sandboxed; opened as a page of their own they download, so no uploaded page
 * ever sits at the top of a window under our address. Images show inline; anything else downloads.
 */
export async function frameContent(deps: Deps, viewer: Viewer, library: Library, id: number, fetchDest: string | undefined): Promise<ServedFile> {
  const row = await viewableSupplement(deps.db, viewer, id)
  if (row.format === 'link' || libraryOf(row.format) !== library) throw new NotFoundError(`No ${library === 'media' ? 'media item' : 'visualization'} with this id`)
  const framed = fetchDest === undefined || fetchDest === 'iframe' || fetchDest === 'frame'
  const active = isActiveContent(row.contentType)
  const inline = isRasterImage(row.contentType) || (active && framed)
  return { kind: 'file', ...(await original(deps, row)), contentType: row.contentType, filename: filenameOf(row), inline, sandboxed: true, shared: 'token' in viewer }
}
