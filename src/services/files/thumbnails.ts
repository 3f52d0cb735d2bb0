// Thumbnails of raster images (SPEC §7, §9: e.g. 148x148 at quality 60), made with sharp on first request and kept
// in the file store beside the original, so later requests and other app instances stream the stored one.
import type { Readable } from 'node:stream'
import sharp from 'sharp'
import type { SupplementRow } from '../../db/queries/supplements.ts'
import type { FileStore, StoredFile } from '../../files/index.ts'
import { NotFoundError, ValidationError } from '../errors.ts'
import { isRasterImage } from './kinds.ts'

/** The sizes the library pages use (148 and its double for dense screens); others are refused rather than stored. */
export const THUMBNAIL_SIZES = ['148x148', '296x296'] as const
export type ThumbnailSize = (typeof THUMBNAIL_SIZES)[number]
const QUALITY = 60
/** A decompression bomb (a tiny file claiming huge dimensions) is refused before it is decoded. */
const MAX_INPUT_PIXELS = 40_000_000
/** Never more than the biggest thumbnail: a thumbnail is at most 296 × 296 × 3 bytes before encoding. */
const MAX_THUMBNAIL_BYTES = 1024 * 1024

// Each thumbnail is made once and then stored: libvips's operation cache would only hold memory.
sharp.cache(false)

export function thumbnailSize(raw: string): ThumbnailSize {
  if ((THUMBNAIL_SIZES as readonly string[]).includes(raw)) return raw as ThumbnailSize
  throw new ValidationError('thumbnail', `thumbnail: must be one of ${THUMBNAIL_SIZES.join(', ')} (width x height).`)
}

export function thumbnailKey(storageKey: string, size: ThumbnailSize): string {
  return `thumbnails/${storageKey.replace(/^supplements\//, '').replace(/\.[a-z0-9]+$/i, '')}-${size}.jpg`
}

function resized(original: Readable, size: ThumbnailSize): Readable {
  const [width, height] = size.split('x').map(Number)
  const resize = sharp({ limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(width, height, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: QUALITY })
  original.on('error', (error) => resize.destroy(error))
  return original.pipe(resize)
}

/** The stored thumbnail, made and stored first if there is none yet. */
export async function thumbnailOf(files: FileStore, row: SupplementRow, size: ThumbnailSize): Promise<StoredFile> {
  if (!row.storageKey || !isRasterImage(row.contentType)) throw new ValidationError('thumbnail', 'thumbnail: only images have thumbnails.')
  const key = thumbnailKey(row.storageKey, size)
  const stored = await files.read(key)
  if (stored) return stored
  const original = await files.read(row.storageKey)
  if (!original) throw new NotFoundError('The file of this supplement is missing from the file store.')
  let staged
  try {
    staged = await files.stage(resized(original.stream, size), { maxBytes: MAX_THUMBNAIL_BYTES })
  } catch {
    // sharp could not decode it (corrupt, or over the pixel limit); the original itself is still served.
    original.stream.destroy()
    throw new ValidationError('thumbnail', 'thumbnail: this image could not be read to make one.')
  }
  await staged.commit(key, 'image/jpeg')
  const made = await files.read(key)
  if (!made) throw new NotFoundError('The thumbnail could not be stored.')
  return made
}
