// The ZIP form of an advice-set file (issue 28): `set.json` at the root and supplement files under `files/`, read
// from an upload held in memory and written for export. Nothing is ever written to disk.
//
// Why no ZIP library: yauzl (the usual reader with validation) and yazl are not dependencies, and what is installed
// (jszip, unzipper, archiver, as exceljs's dependencies) either inflates an entry whole before its size can be
// checked (jszip) or is not ours to rely on. Reading an archive that is already in memory takes little: the end
// record, the central directory and each local header, all checked here, and Node's own zlib inflates each entry
// with `maxOutputLength`, which stops inflating as soon as the output passes the bound (the entry's declared size,
// itself checked against every cap first), so a lying header or a bomb costs at most one zlib chunk past a cap.
// Refused: entries whose names could escape a folder (`..`, `.`, empty segments, a leading `/`, a drive letter, a
// backslash, control characters such as NUL) or repeat a name, encrypted entries, compression other than stored and
// deflate, ZIP64 and multi-disk archives (the caps keep an archive far below 4 GB), entries whose data overlap
// (Fifield's overlapping-file bombs) or whose local header disagrees with the central directory, and a checksum or
// size that does not match the data. Entries other than set.json and files/… are refused by name (an export never
// has them, and dropping them silently would hide a mistake), except what archivers of macOS and Windows add on
// their own (`__MACOSX/…`, `.DS_Store`, `Thumbs.db`), which is skipped unread.
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createDeflateRaw, inflateRaw } from 'node:zlib'
import { MAX_UPLOAD_BYTES } from '../files/uploads.ts'
import { PortableFileError } from './portable-error.ts'
import { MAX_JSON_BYTES } from './portable-json.ts'

/** Issue 28: a ZIP upload. */
export const MAX_ZIP_BYTES = 100 * 1024 * 1024
/**
 * All entries inflated, held in memory at once beside the upload: set.json (at most 20 MB) and supplements that are
 * mostly images and PDFs, already compressed (ratio about 1), so a full 100 MB archive of them fits with room for
 * text files that compress 2:1; the worst case stays a few hundred MB for one import.
 */
export const MAX_ZIP_UNCOMPRESSED_BYTES = 200 * 1024 * 1024
/**
 * Uncompressed to compressed size, of each entry and of the whole archive, above RATIO_FLOOR_BYTES. Deflate reaches
 * about 1032:1 on a bomb's zeros; canonical advice-set JSON measured 65:1 for 5,000 generated nodes and 290:1 for
 * 50,000 identical ones, so 400:1 refuses bombs without refusing repetitive sets.
 */
export const MAX_ZIP_RATIO = 400
/** Below this size an entry cannot hurt, whatever its ratio (a small text file of spaces). */
export const RATIO_FLOOR_BYTES = 1024 * 1024
/** Far more supplements than a set has; each entry costs a header read and a zlib call. */
export const MAX_ZIP_ENTRIES = 10_000
/** A supplement holds at most what the file store accepts from an upload. */
export const MAX_ZIP_FILE_BYTES = MAX_UPLOAD_BYTES

export const SET_ENTRY = 'set.json'
export const FILES_FOLDER = 'files/'

const LOCAL_HEADER = 0x04034b50
const CENTRAL_HEADER = 0x02014b50
const END_RECORD = 0x06054b50
const ZIP64_LOCATOR = 0x07064b50
const DATA_DESCRIPTOR = 0x08074b50
const STORED = 0
const DEFLATED = 8
/** Flags: bit 0 encrypted, bit 6 strong encryption; bit 3 sizes after the data, bit 11 UTF-8 names. */
const ENCRYPTED = 0x0001 | 0x0040
const WRITE_FLAGS = 0x0008 | 0x0800

const utf8 = new TextDecoder('utf-8', { fatal: true })

const CRC_TABLE = (() => {
  const table = new Int32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c
  }
  return table
})()

/** CRC-32 (ZIP's) of `bytes`, continuing from `crc` (0 to start). Node 20's zlib has no crc32 yet. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc
  for (let i = 0; i < bytes.length; i++) c = (CRC_TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8)
  return ~c >>> 0
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`
}

/** What is wrong with an entry's name, as the end of a sentence about it, or null. The writer keeps the same rules. */
export function entryNameProblem(name: string): string | null {
  if (name === '') return 'has an empty name.'
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'has a control character (such as NUL) in its name.'
  if (name.includes('\\')) return 'has a backslash in its name (ZIP names separate folders with /).'
  if (name.startsWith('/')) return 'has an absolute path (it starts with /).'
  if (/^[A-Za-z]:/.test(name)) return 'has an absolute path (it starts with a drive letter).'
  const segments = (name.endsWith('/') ? name.slice(0, -1) : name).split('/')
  if (segments.includes('..')) return 'has a ".." segment in its path, which would leave the archive.'
  if (segments.some((s) => s === '' || s === '.')) return 'has an empty or "." segment in its path.'
  return null
}

const entryName = (name: string) => JSON.stringify(name.length > 200 ? `${name.slice(0, 200)}…` : name)

function refuseEntry(name: string, problem: string): never {
  throw new PortableFileError(`the ZIP entry ${entryName(name)} ${problem}`, { entry: name })
}

function damaged(why: string): never {
  throw new PortableFileError(`the ZIP archive cannot be read (${why}); it may be damaged or cut off.`)
}

/** Skipped unread: what archivers add beside the files they were given. */
function isOsLitter(name: string): boolean {
  const base = name.endsWith('/') ? '' : name.slice(name.lastIndexOf('/') + 1)
  return name.startsWith('__MACOSX/') || base === '.DS_Store' || base === 'Thumbs.db'
}

interface Entry {
  name: string
  nameBytes: Buffer
  method: number
  crc: number
  compressedSize: number
  size: number
  headerOffset: number
  dataStart: number
  dataEnd: number
}

/** The offset of the end-of-central-directory record: the last signature whose comment reaches the end exactly. */
function endRecordOffset(bytes: Buffer): number {
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (bytes.readUInt32LE(at) === END_RECORD && at + 22 + bytes.readUInt16LE(at + 20) === bytes.length) return at
  }
  return damaged('its end record is missing')
}

/** The central directory's entries, every name and size checked before anything is inflated. */
function centralDirectory(bytes: Buffer): { entries: Entry[]; start: number } {
  const end = endRecordOffset(bytes)
  const count = bytes.readUInt16LE(end + 10)
  const size = bytes.readUInt32LE(end + 12)
  const start = bytes.readUInt32LE(end + 16)
  if ((end >= 20 && bytes.readUInt32LE(end - 20) === ZIP64_LOCATOR) || count === 0xffff || start === 0xffffffff) {
    throw new PortableFileError('the ZIP archive is in the ZIP64 form, which is not read here; an advice-set ZIP is far smaller than 4 GB.')
  }
  if (bytes.readUInt16LE(end + 4) !== 0 || bytes.readUInt16LE(end + 6) !== 0 || bytes.readUInt16LE(end + 8) !== count) {
    throw new PortableFileError('the ZIP archive spans several disks; make it one file.')
  }
  if (count > MAX_ZIP_ENTRIES) throw new PortableFileError(`the ZIP archive has ${count} entries; at most ${MAX_ZIP_ENTRIES} are read.`)
  if (start + size > end) damaged('its central directory lies outside the file')
  const entries: Entry[] = []
  const names = new Set<string>()
  let at = start
  for (let n = 0; n < count; n++) {
    if (at + 46 > start + size || bytes.readUInt32LE(at) !== CENTRAL_HEADER) damaged('its central directory is cut short')
    const flags = bytes.readUInt16LE(at + 8)
    const method = bytes.readUInt16LE(at + 10)
    const compressedSize = bytes.readUInt32LE(at + 20)
    const entrySize = bytes.readUInt32LE(at + 24)
    const nameLength = bytes.readUInt16LE(at + 28)
    const headerOffset = bytes.readUInt32LE(at + 42)
    const next = at + 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32)
    if (next > start + size) damaged('its central directory is cut short')
    const nameBytes = bytes.subarray(at + 46, at + 46 + nameLength)
    let name: string
    try {
      name = utf8.decode(nameBytes)
    } catch {
      throw new PortableFileError(`the name of ZIP entry ${n + 1} is not UTF-8 text; make the archive with a tool that writes UTF-8 names.`)
    }
    const problem = entryNameProblem(name)
    if (problem) refuseEntry(name, problem)
    if (names.has(name)) refuseEntry(name, 'appears twice in the archive.')
    names.add(name)
    if (compressedSize === 0xffffffff || entrySize === 0xffffffff || headerOffset === 0xffffffff) {
      refuseEntry(name, 'is in the ZIP64 form, which is not read here; an advice-set ZIP is far smaller than 4 GB.')
    }
    if (flags & ENCRYPTED) refuseEntry(name, 'is encrypted; make the archive without a password.')
    if (method !== STORED && method !== DEFLATED) refuseEntry(name, `is compressed with method ${method}; only stored and deflate entries are read.`)
    if (method === STORED && compressedSize !== entrySize) damaged(`entry ${entryName(name)} is stored with two sizes`)
    entries.push({ name, nameBytes, method, crc: bytes.readUInt32LE(at + 16), compressedSize, size: entrySize, headerOffset, dataStart: 0, dataEnd: 0 })
    at = next
  }
  return { entries, start }
}

/** Finds each entry's data after its local header, which must agree with the central directory; no two overlap. */
function placeData(bytes: Buffer, entries: Entry[], centralStart: number): void {
  for (const entry of entries) {
    const at = entry.headerOffset
    if (at + 30 > centralStart || bytes.readUInt32LE(at) !== LOCAL_HEADER) damaged(`the local header of ${entryName(entry.name)} is missing`)
    const nameLength = bytes.readUInt16LE(at + 26)
    entry.dataStart = at + 30 + nameLength + bytes.readUInt16LE(at + 28)
    entry.dataEnd = entry.dataStart + entry.compressedSize
    if (entry.dataEnd > centralStart) damaged(`the data of ${entryName(entry.name)} runs past the end of the entries`)
    if (bytes.readUInt16LE(at + 8) !== entry.method || !bytes.subarray(at + 30, at + 30 + nameLength).equals(entry.nameBytes)) {
      refuseEntry(entry.name, 'is described differently in its local header and in the central directory.')
    }
  }
  const byOffset = [...entries].sort((a, b) => a.headerOffset - b.headerOffset)
  for (let i = 1; i < byOffset.length; i++) {
    const [before, entry] = [byOffset[i - 1] as Entry, byOffset[i] as Entry]
    if (entry.headerOffset < before.dataEnd) refuseEntry(entry.name, `overlaps the data of ${entryName(before.name)} (a ZIP bomb's trick).`)
  }
}

/** The entry's bytes, inflated no further than its declared size (plus one byte, to tell a lying header). */
async function inflateEntry(bytes: Buffer, entry: Entry): Promise<Buffer> {
  const data = bytes.subarray(entry.dataStart, entry.dataEnd)
  const content = entry.method === STORED ? Buffer.from(data) : await new Promise<Buffer>((resolve, reject) => {
    inflateRaw(data, { maxOutputLength: entry.size + 1 }, (error, result) => {
      if (!error) resolve(result)
      else if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        reject(new PortableFileError(`the ZIP entry ${entryName(entry.name)} inflates to more than the ${entry.size} bytes its header declares; it was refused (a ZIP bomb's trick).`, { entry: entry.name }))
      } else reject(new PortableFileError(`the ZIP entry ${entryName(entry.name)} is damaged (its compressed data cannot be read).`, { entry: entry.name }))
    })
  })
  if (content.length !== entry.size) refuseEntry(entry.name, `is damaged (it holds ${content.length} bytes, its header declares ${entry.size}).`)
  if (crc32(content) !== entry.crc) refuseEntry(entry.name, 'is damaged (its checksum does not match its content).')
  return content
}

function checkSizes(bytes: Buffer, document: Entry, files: Entry[]): void {
  if (document.size > MAX_JSON_BYTES) refuseEntry(document.name, `is larger than ${megabytes(MAX_JSON_BYTES)}.`)
  let total = document.size
  for (const entry of [document, ...files]) {
    if (entry !== document && entry.size > MAX_ZIP_FILE_BYTES) refuseEntry(entry.name, `is larger than ${megabytes(MAX_ZIP_FILE_BYTES)}, the most a supplement file may hold.`)
    if (entry.size > RATIO_FLOOR_BYTES && entry.size / Math.max(1, entry.compressedSize) > MAX_ZIP_RATIO) {
      refuseEntry(entry.name, `is compressed more than ${MAX_ZIP_RATIO}:1 (${entry.size} bytes from ${entry.compressedSize}); it was refused as a ZIP bomb.`)
    }
    if (entry !== document) total += entry.size
  }
  if (total > MAX_ZIP_UNCOMPRESSED_BYTES) {
    throw new PortableFileError(`the ZIP archive holds more than ${megabytes(MAX_ZIP_UNCOMPRESSED_BYTES)} once uncompressed.`)
  }
  if (total > RATIO_FLOOR_BYTES && total / bytes.length > MAX_ZIP_RATIO) {
    throw new PortableFileError(`the ZIP archive is compressed more than ${MAX_ZIP_RATIO}:1 as a whole; it was refused as a ZIP bomb.`)
  }
}

/** The `set.json` of an advice-set ZIP (its bytes, not yet read as JSON) and its `files/…` by their path under files/. */
export interface PortableZip {
  setJson: Buffer
  files: Map<string, Buffer>
}

/** Reads an advice-set ZIP held in memory, refusing it with a PortableFileError as the file's header says. */
export async function readPortableZip(bytes: Buffer): Promise<PortableZip> {
  if (bytes.length > MAX_ZIP_BYTES) throw new PortableFileError(`the ZIP archive is larger than ${megabytes(MAX_ZIP_BYTES)}.`)
  const { entries, start } = centralDirectory(bytes)
  placeData(bytes, entries, start)
  let document: Entry | undefined
  const files: Entry[] = []
  for (const entry of entries) {
    if (entry.name === SET_ENTRY) document = entry
    else if (isOsLitter(entry.name)) continue
    else if (entry.name.startsWith(FILES_FOLDER) && entry.name.endsWith('/')) {
      if (entry.size !== 0) refuseEntry(entry.name, 'is a folder with content.')
    } else if (entry.name.startsWith(FILES_FOLDER)) files.push(entry)
  }
  if (!document) {
    const nested = entries.find((e) => e.name.endsWith(`/${SET_ENTRY}`) && !isOsLitter(e.name))
    throw new PortableFileError(nested
      ? `the ZIP archive has its set.json in a folder (${entryName(nested.name)}); set.json must be at the archive's root: zip the folder's contents, not the folder.`
      : 'the ZIP archive has no set.json at its root; an advice-set ZIP holds set.json and its supplement files under files/.')
  }
  const unknown = entries.find((e) => e !== document && !isOsLitter(e.name) && !e.name.startsWith(FILES_FOLDER))
  if (unknown) refuseEntry(unknown.name, 'is neither set.json nor under files/; an advice-set ZIP holds only those.')
  checkSizes(bytes, document, files)
  const read: PortableZip = { setJson: await inflateEntry(bytes, document), files: new Map() }
  // One at a time: at most one entry's inflation is under way, on top of what is already read.
  for (const entry of files) read.files.set(entry.name.slice(FILES_FOLDER.length), await inflateEntry(bytes, entry))
  return read
}

/** 1980-01-01 00:00, the earliest MS-DOS date: every entry carries it, so the same set gives the same bytes. */
const DOS_TIME = 0
const DOS_DATE = (0 << 9) | (1 << 5) | 1
/** Made by Unix (3), ZIP 2.0; a regular file readable by all (0644), so unzip gives ordinary files. */
const MADE_BY = (3 << 8) | 20
const FILE_ATTRIBUTES = (0o100644 << 16) >>> 0

function localHeader(name: Buffer): Buffer {
  const header = Buffer.alloc(30)
  header.writeUInt32LE(LOCAL_HEADER, 0)
  header.writeUInt16LE(20, 4)
  header.writeUInt16LE(WRITE_FLAGS, 6)
  header.writeUInt16LE(DEFLATED, 8)
  header.writeUInt16LE(DOS_TIME, 10)
  header.writeUInt16LE(DOS_DATE, 12)
  // crc and sizes (14–25) follow the data, in its descriptor
  header.writeUInt16LE(name.length, 26)
  return Buffer.concat([header, name])
}

function dataDescriptor(crc: number, compressedSize: number, size: number): Buffer {
  const descriptor = Buffer.alloc(16)
  descriptor.writeUInt32LE(DATA_DESCRIPTOR, 0)
  descriptor.writeUInt32LE(crc, 4)
  descriptor.writeUInt32LE(compressedSize, 8)
  descriptor.writeUInt32LE(size, 12)
  return descriptor
}

function centralHeader(name: Buffer, crc: number, compressedSize: number, size: number, offset: number): Buffer {
  const header = Buffer.alloc(46)
  header.writeUInt32LE(CENTRAL_HEADER, 0)
  header.writeUInt16LE(MADE_BY, 4)
  header.writeUInt16LE(20, 6)
  header.writeUInt16LE(WRITE_FLAGS, 8)
  header.writeUInt16LE(DEFLATED, 10)
  header.writeUInt16LE(DOS_TIME, 12)
  header.writeUInt16LE(DOS_DATE, 14)
  header.writeUInt32LE(crc, 16)
  header.writeUInt32LE(compressedSize, 20)
  header.writeUInt32LE(size, 24)
  header.writeUInt16LE(name.length, 28)
  header.writeUInt32LE(FILE_ATTRIBUTES, 38)
  header.writeUInt32LE(offset, 42)
  return Buffer.concat([header, name])
}

function endRecord(count: number, size: number, offset: number): Buffer {
  const record = Buffer.alloc(22)
  record.writeUInt32LE(END_RECORD, 0)
  record.writeUInt16LE(count, 8)
  record.writeUInt16LE(count, 10)
  record.writeUInt32LE(size, 12)
  record.writeUInt32LE(offset, 16)
  return record
}

/** The content's bytes deflated, as they come; `seen` is told each chunk of the content itself. */
async function* deflated(content: Buffer | Readable, seen: (chunk: Buffer) => void): AsyncGenerator<Buffer> {
  async function* chunks(): AsyncGenerator<Buffer> {
    if (Buffer.isBuffer(content)) {
      seen(content)
      yield content
      return
    }
    for await (const chunk of content) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string)
      seen(bytes)
      yield bytes
    }
  }
  const deflate = createDeflateRaw({ level: 6 })
  const done = pipeline(Readable.from(chunks()), deflate)
  done.catch(() => {}) // its failure is the loop's, thrown there (or by the await below)
  for await (const chunk of deflate) yield chunk as Buffer
  await done
}

/** A ZIP's sizes and offsets are 32-bit without ZIP64, which the reader refuses anyway. */
function checked(value: number, what: string): number {
  if (value > 0xffffffff) throw new Error(`The advice-set ZIP is too large to write: ${what} passes 4 GB.`)
  return value
}

/**
 * The ZIP form of an advice set: `set.json` (the canonical document) first, then each of `files` as `files/<path>`
 * in the order of their paths. Deflated, with fixed dates and attributes, so the same set gives the same bytes
 * (with the same zlib: Node's bundled one). Streamed: a file given as a Readable is read while the ZIP is being sent.
 * Paths follow the reader's rules (entryNameProblem); one that breaks them is a programming error, thrown.
 */
export function writePortableZip(json: string, files: ReadonlyMap<string, Buffer | Readable>): Readable {
  const paths = [...files.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  for (const path of paths) {
    const problem = entryNameProblem(`${FILES_FOLDER}${path}`) ?? (path.endsWith('/') ? 'ends with /.' : null)
    if (problem) throw new Error(`A supplement file cannot be written as ${JSON.stringify(`${FILES_FOLDER}${path}`)}: it ${problem}`)
  }
  if (paths.length + 1 > 0xffff) throw new Error('The advice-set ZIP is too large to write: more than 65,535 entries.')
  const entries: Array<[string, Buffer | Readable]> = [[SET_ENTRY, Buffer.from(json, 'utf8')], ...paths.map((p): [string, Buffer | Readable] => [`${FILES_FOLDER}${p}`, files.get(p) as Buffer | Readable])]
  async function* zip(): AsyncGenerator<Buffer> {
    const central: Buffer[] = []
    let offset = 0
    for (const [name, content] of entries) {
      const nameBytes = Buffer.from(name, 'utf8')
      const header = localHeader(nameBytes)
      yield header
      let crc = 0
      let size = 0
      let compressedSize = 0
      for await (const chunk of deflated(content, (bytes) => { crc = crc32(bytes, crc); size += bytes.length })) {
        compressedSize += chunk.length
        yield chunk
      }
      const descriptor = dataDescriptor(crc, checked(compressedSize, name), checked(size, name))
      yield descriptor
      central.push(centralHeader(nameBytes, crc, compressedSize, size, checked(offset, 'the archive')))
      offset += header.length + compressedSize + descriptor.length
    }
    const directory = Buffer.concat(central)
    yield directory
    yield endRecord(entries.length, directory.length, checked(offset, 'the archive'))
  }
  return Readable.from(zip(), { objectMode: false })
}
