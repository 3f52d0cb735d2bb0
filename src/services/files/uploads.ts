// Uploading a file (SPEC §4 Upload, §5, §7 supplements/upload): streamed from the request into the file store, never
// held whole in memory; refused past 10 MB with "File too large"; typed from its bytes. The bytes are committed
// under their key before the row is written, and the row (with its link, when the upload is for a node or a set)
// is written in one transaction; any failure on the way leaves neither a file nor a row.
import { randomUUID } from 'node:crypto'
import type { Readable } from 'node:stream'
import { insertSupplement, type SupplementRow } from '../../db/queries/supplements.ts'
import { FileTooLargeError, type StagedFile } from '../../files/index.ts'
import { audit } from '../audit/audit.ts'
import type { Actor, Deps } from '../context.ts'
import { DomainError, ValidationError } from '../errors.ts'
import { fileKindOf } from './kinds.ts'
import { prepareLink, targetTypeOf, writeLink } from './links.ts'
import { assertCanCreate, auditView, ENTITY_SUPPLEMENT, newAccessToken } from './supplements.ts'
import { defaultTypeFor, nameFromFilename, supplementDescription, supplementName, supplementType } from './validate.ts'

/** SPEC §5 and §9: 10 MB per file. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024

/** SPEC §8: the server's message for a file over the limit, which the uploader recognises. */
export class FileTooLargeUploadError extends DomainError {
  constructor() {
    super('FILE_TOO_LARGE', 'File too large', 413)
  }
}

/** One part of a multipart upload, as the route reads it: the file (field `file`) or a text field. */
export type UploadPart =
  | { kind: 'file'; field: string; filename: string; stream: Readable }
  | { kind: 'field'; field: string; value: string }

export interface UploadOptions {
  /** The visualization library takes HTML only. */
  onlyVisualizations?: boolean
}

function targetIdOf(raw: string | undefined): number {
  const id = Number(raw)
  if (!raw || !/^\d+$/.test(raw) || !Number.isSafeInteger(id) || id < 1) throw new ValidationError('targetId', 'Invalid item id format.')
  return id
}

/** Where a file's bytes go in the store: a fresh name each time, so a key never names two contents. */
function storageKeyFor(fileExt: string): string {
  return `supplements/${randomUUID()}${fileExt ? `.${fileExt}` : ''}`
}

export async function uploadSupplement(deps: Deps, actor: Actor, parts: AsyncIterable<UploadPart>, opts: UploadOptions = {}): Promise<SupplementRow> {
  assertCanCreate(actor)
  const fields: Record<string, string> = {}
  let staged: StagedFile | null = null
  let filename = ''
  let committedKey: string | null = null
  try {
    for await (const part of parts) {
      if (part.kind === 'field') {
        fields[part.field] = part.value
        continue
      }
      if (part.field !== 'file' || staged) throw new ValidationError('file', 'Send one file, in the field "file".')
      filename = part.filename
      staged = await deps.files.stage(part.stream, { maxBytes: MAX_UPLOAD_BYTES })
    }
    if (!staged) throw new ValidationError('file', 'file: choose a file to upload.')
    if (staged.size === 0) throw new ValidationError('file', `file: “${filename}” is empty.`)
    const kind = await fileKindOf(staged.head, filename)
    if (opts.onlyVisualizations && kind.format !== 'viz') {
      throw new ValidationError('file', `file: a visualization is an HTML page; “${filename}” is ${kind.contentType}. Add it to the media library instead.`)
    }
    const name = fields.name?.trim() ? supplementName(fields.name) : nameFromFilename(filename)
    const description = supplementDescription(fields.description)
    const target = fields.targetType || fields.targetId
      ? await prepareLink(deps.db, actor, { targetType: targetTypeOf(fields.targetType), targetId: targetIdOf(fields.targetId) })
      : null
    const type = supplementType(fields.type, defaultTypeFor(target?.targetType))

    const key = storageKeyFor(kind.fileExt)
    await staged.commit(key, kind.contentType)
    committedKey = key
    return await deps.db.transaction(async (tx) => {
      const row = await insertSupplement(tx, {
        ownerId: actor.ownerId, name, type, description, format: kind.format, source: deps.files.kind === 's3' ? 'S3' : 'tf',
        contentType: kind.contentType, fileExt: kind.fileExt, size: staged!.size, storageKey: key, url: null, imageUrl: null,
        accessToken: newAccessToken(), createdBy: actor.userId,
      })
      await audit(tx, actor, { ownerId: row.ownerId, action: 'create', entityType: ENTITY_SUPPLEMENT, entityId: row.id, after: auditView(row) })
      if (target) await writeLink(tx, actor, row, target)
      return row
    })
  } catch (error) {
    if (committedKey) await deps.files.delete(committedKey)
    else if (staged) await staged.discard()
    throw error instanceof FileTooLargeError ? new FileTooLargeUploadError() : error
  }
}
