// Hostile multipart/form-data bodies for the route fuzz (issue 22): built byte by byte, so they can be cut off, carry
// NUL and control characters in fields and file names, break the part headers, or declare a length they never send.
import type { RawBody } from './schema-fuzz.ts'

export interface MultipartBody extends RawBody {
  contentType: string
  /** Headers beside Content-Type, e.g. a declared Content-Length the payload does not have. */
  headers?: Record<string, string>
}

interface Part {
  name: string
  value: string | Buffer
  /** A file part: its name as sent in `filename="…"`, or (with `star`) RFC 5987-encoded in `filename*=`. */
  filename?: string
  star?: boolean
  type?: string
}

const BOUNDARY = 'fuzzBoundary7MA4YWxkTrZu0gW'

function partHead(part: Part): string {
  let disposition = `form-data; name="${part.name}"`
  if (part.filename !== undefined) {
    disposition += part.star ? `; filename*=UTF-8''${encodeURIComponent(part.filename)}` : `; filename="${part.filename}"`
  }
  const type = part.type ?? (part.filename !== undefined ? 'application/octet-stream' : undefined)
  return `Content-Disposition: ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`
}

export function multipartOf(parts: Part[], boundary = BOUNDARY): Buffer {
  const chunks: Buffer[] = []
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n${partHead(part)}`, 'latin1'), Buffer.from(part.value), Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return Buffer.concat(chunks)
}

const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`
const file = (filename = 'notes.txt', opts: Partial<Part> = {}): Part => ({ name: 'file', filename, value: 'hello, fuzz', type: 'text/plain', ...opts })
const body = (label: string, parts: Part[], extra: Partial<MultipartBody> = {}): MultipartBody => ({ label, payload: multipartOf(parts), contentType: CONTENT_TYPE, ...extra })

/** Every hostile multipart body, plus a well-formed one first (so a route's success path is walked too). */
export function hostileMultipartBodies(): MultipartBody[] {
  const valid = multipartOf([{ name: 'name', value: 'Fuzz upload' }, { name: 'description', value: 'From the fuzz' }, file()])
  const bodies: MultipartBody[] = [
    body('well-formed', [{ name: 'name', value: 'Fuzz upload' }, { name: 'description', value: 'From the fuzz' }, file()]),
    // NUL and control characters in field values.
    ...['\u0000', 'a\u0000b', '\u0001\u0002', 'line\r\nbreak', 'tab\there', '\u001b[31m', '\u007f'].flatMap((text) => [
      body(`name=${JSON.stringify(text)}`, [{ name: 'name', value: text }, file()]),
      body(`description=${JSON.stringify(text)}`, [{ name: 'description', value: text }, file()]),
      body(`type=${JSON.stringify(text)}`, [{ name: 'type', value: text }, file()]),
      body(`targetType=${JSON.stringify(text)}`, [{ name: 'targetType', value: text }, { name: 'targetId', value: '1' }, file()]),
    ]),
    // NUL and control characters in file names (RFC 5987 carries the ones a header line cannot).
    ...['a\u0000.txt', '\u0000', 'a\r\nb.txt', 'a\u0001b.txt', '\t.txt', '../../etc/passwd', '..\\..\\boot.ini', '"quoted".txt', '', ' ', '.htaccess', `${'n'.repeat(300)}.txt`].flatMap((name) => [
      body(`filename*=${JSON.stringify(name)}`, [file(name, { star: true })]),
      ...(/[\r\n"]/.test(name) ? [] : [body(`filename=${JSON.stringify(name)}`, [file(name)])]),
    ]),
    // NUL and controls in a field's name, a part without a name, a prototype name.
    body('NUL in a field name', [{ name: 'na\u0000me', value: 'x' }, file()]),
    body('a control in a field name', [{ name: 'na\u0001me', value: 'x' }, file()]),
    body('__proto__ as a field', [{ name: '__proto__', value: 'x' }, file()]),
    body('constructor as a field', [{ name: 'constructor', value: 'x' }, file()]),
    body('file in another field', [{ name: 'upload', filename: 'a.txt', value: 'x' }]),
    body('two files', [file('a.txt'), file('b.txt')]),
    body('only fields', [{ name: 'name', value: 'No file' }]),
    body('an empty file', [file('empty.txt', { value: '' })]),
    body('eleven fields', [...Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, value: 'x' })), file()]),
    body('a JSON field', [{ name: 'name', value: '{"a":1}', type: 'application/json' }, file()]),
    body('a 17 KB field', [{ name: 'description', value: 'd'.repeat(17 * 1024) }, file()]),
    body('invalid UTF-8 in a field', [{ name: 'name', value: Buffer.from([0xff, 0xfe, 0x41]) }, file()]),
    // Cut off before the closing boundary, at several places.
    ...[0.25, 0.5, 0.75, 0.95].map((share) => ({ label: `cut at ${share * 100}%`, payload: valid.subarray(0, Math.floor(valid.length * share)), contentType: CONTENT_TYPE })),
    { label: 'cut before the closing boundary', payload: valid.subarray(0, valid.length - 8), contentType: CONTENT_TYPE },
    { label: 'a broken part header', payload: Buffer.from(`--${BOUNDARY}\r\nContent-Disposition form-data name=file\r\n\r\nx\r\n--${BOUNDARY}--\r\n`), contentType: CONTENT_TYPE },
    { label: 'no closing boundary, junk after', payload: Buffer.concat([valid.subarray(0, valid.length - 4), Buffer.from('junk')]), contentType: CONTENT_TYPE },
    // The Content-Type's boundary: missing, empty, too long, not the body's.
    { label: 'no boundary', payload: valid, contentType: 'multipart/form-data' },
    { label: 'an empty boundary', payload: valid, contentType: 'multipart/form-data; boundary=' },
    { label: 'a 300-character boundary', payload: valid, contentType: `multipart/form-data; boundary=${'b'.repeat(300)}` },
    { label: 'another boundary than the body\'s', payload: valid, contentType: 'multipart/form-data; boundary=other' },
    { label: 'multipart/mixed', payload: valid, contentType: `multipart/mixed; boundary=${BOUNDARY}` },
    { label: 'an empty body', payload: Buffer.alloc(0), contentType: CONTENT_TYPE },
    // Lengths declared larger than the route accepts (nothing of the body is needed to refuse them).
    { label: 'Content-Length: 10737418240', payload: valid, contentType: CONTENT_TYPE, headers: { 'content-length': '10737418240' } },
    { label: 'Content-Length: 11534337', payload: valid, contentType: CONTENT_TYPE, headers: { 'content-length': String(11 * 1024 * 1024 + 1) } },
  ]
  return bodies
}
