// The uploader's props: where it uploads, what it is attached to, its limits and the files already there.
import { InvalidPropsError } from '../shared/invalid-props.ts'
import { isRecord } from '../shared/guards.ts'

/** A stored supplement the uploader lists (the API's listed view). */
export interface UploadedFile {
  id: number
  name: string
  format: string
  href: string
  thumbnail: string | null
}

export interface UploadTarget { targetType: 'ruleNode' | 'adviceSet'; targetId: number }

export interface FileUploaderProps {
  uploadUrl: string
  /** Uploads are linked to it, and removing a file unlinks it; without one, removing deletes the supplement. */
  target: UploadTarget | null
  /** SPEC §4 "optional maximum file count". */
  maxFiles: number | null
  maxBytes: number
  files: UploadedFile[]
  removeMode: 'unlink' | 'delete'
  accept: string | null
  addLabel: string
  multiple: boolean
  readOnly: boolean
}

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0

export function parseUploadedFile(raw: unknown): UploadedFile {
  if (!isRecord(raw) || !isId(raw.id) || typeof raw.name !== 'string') throw new InvalidPropsError('every file needs an id and a name')
  return {
    id: raw.id, name: raw.name, format: typeof raw.format === 'string' ? raw.format : 'file',
    href: typeof raw.href === 'string' ? raw.href : '', thumbnail: typeof raw.thumbnail === 'string' ? raw.thumbnail : null,
  }
}

function parseTarget(raw: unknown): UploadTarget | null {
  if (raw === null || raw === undefined) return null
  if (!isRecord(raw) || (raw.targetType !== 'ruleNode' && raw.targetType !== 'adviceSet') || !isId(raw.targetId)) {
    throw new InvalidPropsError('file-uploader: target must be { targetType: "ruleNode" | "adviceSet", targetId }')
  }
  return { targetType: raw.targetType, targetId: raw.targetId }
}

export function parseFileUploaderProps(raw: unknown): FileUploaderProps {
  if (!isRecord(raw) || typeof raw.uploadUrl !== 'string' || !raw.uploadUrl.startsWith('/')) throw new InvalidPropsError('file-uploader needs an uploadUrl on this site')
  const maxFiles = isId(raw.maxFiles) ? raw.maxFiles : null
  return {
    uploadUrl: raw.uploadUrl,
    target: parseTarget(raw.target),
    maxFiles,
    maxBytes: isId(raw.maxBytes) ? raw.maxBytes : 10 * 1024 * 1024,
    files: Array.isArray(raw.files) ? raw.files.map(parseUploadedFile) : [],
    removeMode: raw.removeMode === 'unlink' ? 'unlink' : 'delete',
    accept: typeof raw.accept === 'string' ? raw.accept : null,
    addLabel: typeof raw.addLabel === 'string' ? raw.addLabel : 'Add file',
    multiple: raw.multiple !== false,
    readOnly: raw.readOnly === true,
  }
}
