// An uploaded advice-set file (issue 28), read safely before the importer looks at it: the JSON document or the ZIP
// form (set.json + files/…), told apart by their bytes (the name's extension is only used in messages), every cap
// and refusal of "Hostile files" applied on the way (portable-json.ts, portable-zip.ts), each problem a
// PortableFileError at the field `file` naming where it is. Nothing is written anywhere.
import { PortableFileError } from './portable-error.ts'
import { decodeJsonText, parsePortableJson } from './portable-json.ts'
import { readPortableZip, SET_ENTRY } from './portable-zip.ts'

export { PortableFileError, type PortablePlace } from './portable-error.ts'
export { errorAt, locate, locateOffset, MAX_JSON_BYTES } from './portable-json.ts'
export {
  MAX_ZIP_BYTES, MAX_ZIP_ENTRIES, MAX_ZIP_FILE_BYTES, MAX_ZIP_RATIO, MAX_ZIP_UNCOMPRESSED_BYTES, writePortableZip,
} from './portable-zip.ts'

export interface PortableUpload {
  /** The parsed document: plain JSON values, free of prototype keys, at most MAX_JSON_DEPTH deep. */
  document: unknown
  /** Its JSON text (without a BOM), for locate() and errorAt() to place the importer's errors. */
  text: string
  /** The ZIP form's supplement files by their path under files/ ("img/a.png"); empty for a JSON upload. */
  files: Map<string, Buffer>
  /** Which form was sent. */
  form: 'json' | 'zip'
}

/** A ZIP starts with a local header, or (when empty) with its end record. */
function isZip(bytes: Buffer): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6))
}

/** JSON text: after an optional UTF-8 BOM and white space, an object or array opens. */
function isJsonText(bytes: Buffer): boolean {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
  while (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09) i++
  return bytes[i] === 0x7b || bytes[i] === 0x5b
}

function isUtf16(bytes: Buffer): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)
}

/** The upload read as an advice-set file, or a PortableFileError naming the problem (and its place). */
export async function readPortableUpload(bytes: Buffer, filename: string): Promise<PortableUpload> {
  if (bytes.length === 0) throw new PortableFileError('the file is empty.')
  if (isZip(bytes)) {
    const zip = await readPortableZip(bytes)
    const text = decodeJsonText(zip.setJson, SET_ENTRY)
    return { document: parsePortableJson(text, SET_ENTRY), text, files: zip.files, form: 'zip' }
  }
  if (isJsonText(bytes)) {
    const text = decodeJsonText(bytes)
    return { document: parsePortableJson(text), text, files: new Map(), form: 'json' }
  }
  const name = JSON.stringify(filename.length > 100 ? `${filename.slice(0, 100)}…` : filename)
  if (isUtf16(bytes)) throw new PortableFileError(`${name} is UTF-16 text; save the JSON document as UTF-8.`)
  throw new PortableFileError(`${name} is neither an advice-set JSON document nor its ZIP form (set.json with files/); export one from Advice Studio.`)
}
