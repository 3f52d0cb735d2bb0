// Uploaded advice-set files (issue 28, "Hostile files"): every refusal of the JSON text and of the ZIP form, each a
// 400 at the field `file` that names the problem and its place; locate() of JSON Pointers on tricky texts and as a
// property; the ZIP writer's determinism and its round trip through the reader.
import t from 'tap'
import fc from 'fast-check'
import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { deflateRawSync } from 'node:zlib'
import { ValidationError } from '../../../src/services/errors.ts'
import { lineColumnAt } from '../../../src/services/library/portable-error.ts'
import {
  errorAt, locate, locateOffset, MAX_JSON_BYTES, MAX_ZIP_BYTES, MAX_ZIP_ENTRIES, PortableFileError, readPortableUpload,
  writePortableZip,
} from '../../../src/services/library/portable-file.ts'
import { parsePortableJson, pointerOf } from '../../../src/services/library/portable-json.ts'
import { crc32 } from '../../../src/services/library/portable-zip.ts'

/** The error readPortableUpload refuses `bytes` with (failing the test if it reads them). */
async function refusal(bytes: Buffer | string, filename = 'set.json'): Promise<PortableFileError> {
  try {
    await readPortableUpload(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes, 'utf8'), filename)
  } catch (error) {
    if (error instanceof PortableFileError) return error
    throw error
  }
  throw new Error('the upload was read')
}

/** One entry of a hand-made ZIP; the fields after `data` bend it the ways a hostile archive does. */
interface RawEntry {
  name: string | Buffer
  data: Buffer | string
  method?: 0 | 8 | 12
  /** The data are written as they are (already deflated, or not deflate at all), not compressed here. */
  raw?: boolean
  /** Sizes and checksum the headers declare, instead of the true ones. */
  declaredSize?: number
  compressedSize?: number
  crc?: number
  flags?: number
  /** The name in the local header, when it differs from the central directory's. */
  localName?: string
  /** Where the central directory says the local header is (an offset into the archive), for overlapping entries. */
  headerOffset?: number
}

/** A ZIP made by hand (sizes in the local headers, no data descriptors), to say what a writer would refuse to. */
function rawZip(entries: RawEntry[], tail: { count?: number } = {}): Buffer {
  const parts: Buffer[] = []
  const central: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.isBuffer(entry.name) ? entry.name : Buffer.from(entry.name, 'utf8')
    const localName = entry.localName === undefined ? name : Buffer.from(entry.localName, 'utf8')
    const content = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data, 'utf8')
    const method = entry.method ?? 8
    const packed = method === 8 && !entry.raw ? deflateRawSync(content) : content
    const size = entry.declaredSize ?? content.length
    const compressed = entry.compressedSize ?? packed.length
    const crc = entry.crc ?? (entry.raw ? 0 : crc32(content))
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(entry.flags ?? 0x0800, 6)
    local.writeUInt16LE(method, 8)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(compressed, 18)
    local.writeUInt32LE(size, 22)
    local.writeUInt16LE(localName.length, 26)
    const header = Buffer.alloc(46)
    header.writeUInt32LE(0x02014b50, 0)
    header.writeUInt16LE(20, 4)
    header.writeUInt16LE(20, 6)
    header.writeUInt16LE(entry.flags ?? 0x0800, 8)
    header.writeUInt16LE(method, 10)
    header.writeUInt32LE(crc, 16)
    header.writeUInt32LE(compressed, 20)
    header.writeUInt32LE(size, 24)
    header.writeUInt16LE(name.length, 28)
    header.writeUInt32LE(entry.headerOffset ?? offset, 42)
    central.push(header, name)
    if (entry.headerOffset === undefined) {
      parts.push(local, localName, packed)
      offset += local.length + localName.length + packed.length
    }
  }
  const directory = Buffer.concat(central)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(tail.count ?? entries.length, 8)
  end.writeUInt16LE(tail.count ?? entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...parts, directory, end])
}

const SET = '{\n  "format": "advice-set@1"\n}\n'

t.test('a JSON document is read, its BOM dropped, whatever the file is called', async (t) => {
  const read = await readPortableUpload(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(SET)]), 'set.zip')
  t.same(read.document, { format: 'advice-set@1' })
  t.equal(read.text, SET)
  t.equal(read.form, 'json')
  t.equal(read.files.size, 0)
})

t.test('the error is a ValidationError at `file` that carries its place to the API body', async (t) => {
  const error = await refusal('{\n  "a": [1,\n    2,,\n  ]\n}')
  t.ok(error instanceof ValidationError)
  t.equal(error.field, 'file')
  t.equal(error.status, 400)
  t.equal(error.message, "file: line 3, column 7: expected a value, found ','.")
  t.match(error.details, { field: 'file', line: 3, column: 7, fields: [{ field: 'file', message: error.message }] })
})

t.test('anything but JSON text or a ZIP is refused, naming the file', async (t) => {
  t.equal((await refusal(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]), 'set.zip')).message,
    'file: "set.zip" is neither an advice-set JSON document nor its ZIP form (set.json with files/); export one from Advice Studio.')
  t.match((await refusal('format: advice-set@1', 'set.yaml')).message, /"set\.yaml" is neither/)
  t.match((await refusal(Buffer.from('\ufeff{}', 'utf16le'), 'set.json')).message, /is UTF-16 text; save the JSON document as UTF-8/)
  t.equal((await refusal(Buffer.alloc(0))).message, 'file: the file is empty.')
})

t.test('JSON over 20 MB is refused unread', async (t) => {
  const big = Buffer.alloc(MAX_JSON_BYTES + 1, 0x20)
  big[0] = 0x5b
  t.equal((await refusal(big)).message, 'file: the JSON document is larger than 20 MB.')
  const fits = Buffer.alloc(MAX_JSON_BYTES, 0x20)
  fits[0] = 0x5b
  fits[MAX_JSON_BYTES - 1] = 0x5d
  t.same((await readPortableUpload(fits, 'big.json')).document, [])
})

t.test('nesting: 64 levels are read, 65 refused at the pointer of the 65th', async (t) => {
  t.ok(await readPortableUpload(Buffer.from(`${'['.repeat(64)}${']'.repeat(64)}`), 'a.json'))
  const error = await refusal(`${'['.repeat(65)}${']'.repeat(65)}`)
  t.equal(error.details?.pointer, `/${Array(64).fill(0).join('/')}`)
  t.match(error.message, /\(line 1, column 65\): the document is nested more than 64 levels deep\.$/)
  const objects = (n: number) => `${'{"a":'.repeat(n - 1)}{}${'}'.repeat(n - 1)}`
  t.ok(await readPortableUpload(Buffer.from(objects(64)), 'a.json'))
  t.match((await refusal(objects(65))).message, /nested more than 64 levels/)
})

t.test('each prototype key is refused wherever it is, even spelled with escapes', async (t) => {
  for (const key of ['__proto__', 'constructor', 'prototype']) {
    const error = await refusal(`{\n  "rules": [\n    {"nodes": [{"ok": 1, "${key}": {}}]}\n  ]\n}`)
    t.equal(error.message, `file: /rules/0/nodes/0/${key} (line 3, column 26): the key "${key}" is not allowed.`, key)
  }
  t.match((await refusal('[{"__pro\\u0074o__": 1}]')).details, { pointer: '/0/__proto__', line: 1, column: 3 })
  t.match((await refusal('{"x": {"constructor": {"prototype": 1}}}')).details, { pointer: '/x/constructor' })
  t.same((await readPortableUpload(Buffer.from('{"proto": "__proto__", "Constructor": 1}'), 'a.json')).document, { proto: '__proto__', Constructor: 1 })
})

t.test('a key twice in one object is refused; the same key in two objects is fine', async (t) => {
  t.match((await refusal('{"a": {"b": 1, "c": 2, "b": 3}}')).details, { pointer: '/a/b', line: 1, column: 24 })
  t.match((await refusal('{"a": 1, "\\u0061": 2}')).message, /the key "a" appears twice/)
  t.ok(await readPortableUpload(Buffer.from('[{"a": 1}, {"a": 2}]'), 'a.json'))
})

t.test('text that is not UTF-8 is refused at its line and column', async (t) => {
  const bad = (bytes: number[]) => Buffer.concat([Buffer.from('{\n  "name": "é'), Buffer.from(bytes), Buffer.from('"\n}')])
  for (const [what, bytes] of [['a stray byte', [0xff]], ['an overlong slash', [0xc0, 0xaf]], ['an encoded surrogate', [0xed, 0xa0, 0x80]], ['a cut-off sequence', [0xe2, 0x82]]] as const) {
    t.equal((await refusal(bad([...bytes]))).message, 'file: line 2, column 13: the JSON document is not valid UTF-8 text; save it as UTF-8.', what)
  }
})

t.test('text PostgreSQL cannot store, and numbers beyond a double, are refused at their value', async (t) => {
  t.match((await refusal('{"a": ["x\\u0000"]}')).details, { pointer: '/a/0', line: 1, column: 10 })
  t.match((await refusal('{"a": "\\ud800 alone"}')).message, /lone UTF-16 surrogate/)
  t.match((await refusal('{"a": "\\udc00"}')).message, /lone UTF-16 surrogate/)
  t.same((await readPortableUpload(Buffer.from('{"a": "\\ud83d\\ude00"}'), 'a.json')).document, { a: '😀' })
  t.match((await refusal('{"n": -1e400}')).message, /^file: \/n \(line 1, column 7\): the number -1e400 is too large\.$/)
})

t.test('syntax errors give the line and column (in characters) and what was expected', async (t) => {
  const cases: Array<[string, string]> = [
    ['{"a": 1,}', "line 1, column 9: a comma before '}' (JSON allows no trailing comma)."],
    ['[1, 2, ]', "line 1, column 8: a comma before ']' (JSON allows no trailing comma)."],
    ['{\r\n  "é😀": x\r\n}', "line 2, column 9: expected a value, found 'x'."],
    ['{\n"a" 1}', "line 2, column 5: expected ':' after the key, found '1'."],
    ["{'a': 1}", "line 1, column 2: expected a key in double quotes, found '''."],
    ['{"a": 1 "b": 2}', "line 1, column 9: expected ',' or '}' after a member, found '\"'."],
    ['[1 2]', "line 1, column 4: expected ',' or ']' after an item, found '2'."],
    ['{"a": "x\ty"}', 'line 1, column 9: a string holds the control character U+0009; write it as an escape such as \\n or \\t.'],
    ['{"a": "\\x"}', 'line 1, column 8: \\x is not a JSON escape (use \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX).'],
    ['{"a": "\\u12g4"}', 'line 1, column 8: \\u must be followed by four hexadecimal digits.'],
    ['{"a": "open}', 'line 1, column 7: a string starts here and is never closed.'],
    ['{"a": 01}', "line 1, column 8: expected ',' or '}' after a member, found '1'."],
    ['{"a": -}', "line 1, column 7: expected a number, found '-'."],
    ['{"a": 1} {}', "line 1, column 10: the document goes on after its end (found '{')."],
    ['[\n', 'line 2, column 1: expected a value, found the end of the text.'],
    ['\n\n   {"a": [1, 2\n', "line 4, column 1: expected ',' or ']' after an item, found the end of the text."],
  ]
  for (const [text, message] of cases) t.equal((await refusal(text)).message, `file: ${message}`, JSON.stringify(text))
})

t.test('ZIP: set.json and files/… are read; OS litter and folders are skipped', async (t) => {
  const zip = rawZip([
    { name: 'files/', data: '' },
    { name: 'set.json', data: SET },
    { name: 'files/img/ä.png', data: Buffer.from([1, 2, 3]), method: 0 },
    { name: 'files/notes.txt', data: 'x'.repeat(5000) },
    { name: '__MACOSX/._set.json', data: 'junk' },
    { name: 'files/.DS_Store', data: 'junk' },
  ])
  const read = await readPortableUpload(zip, 'set.json')
  t.equal(read.form, 'zip')
  t.same(read.document, { format: 'advice-set@1' })
  t.equal(read.text, SET)
  t.same([...read.files.keys()], ['img/ä.png', 'notes.txt'])
  t.same(read.files.get('img/ä.png'), Buffer.from([1, 2, 3]))
  t.equal(read.files.get('notes.txt')?.toString(), 'x'.repeat(5000))
})

t.test('ZIP: problems in its set.json name the entry', async (t) => {
  const error = await refusal(rawZip([{ name: 'set.json', data: '{\n  "a": {"prototype": 1}\n}' }]), 'x.zip')
  t.equal(error.message, 'file: set.json /a/prototype (line 2, column 9): the key "prototype" is not allowed.')
  t.match(error.details, { entry: 'set.json', pointer: '/a/prototype', line: 2, column: 9 })
  t.equal((await refusal(rawZip([{ name: 'set.json', data: '[1,]' }]), 'x.zip')).message, "file: set.json, line 1, column 4: a comma before ']' (JSON allows no trailing comma).")
})

t.test('ZIP: names that could leave a folder, or repeat, are refused before anything is inflated', async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['files/../../etc/passwd', /has a "\.\." segment in its path/],
    ['../set.json', /has a "\.\." segment/],
    ['files/a/..', /has a "\.\." segment/],
    ['/etc/passwd', /has an absolute path \(it starts with \/\)/],
    ['C:/Windows/win.ini', /starts with a drive letter/],
    ['c:evil', /starts with a drive letter/],
    ['files\\..\\evil', /has a backslash in its name/],
    ['files/a\u0000.png', /has a control character \(such as NUL\)/],
    ['files//a.png', /has an empty or "\." segment/],
    ['files/./a.png', /has an empty or "\." segment/],
  ]
  for (const [name, problem] of cases) {
    const error = await refusal(rawZip([{ name: 'set.json', data: SET }, { name, data: 'x' }]), 'x.zip')
    t.match(error.message, problem, JSON.stringify(name))
    t.equal(error.details?.entry, name)
    t.ok(error.message.startsWith(`file: the ZIP entry ${JSON.stringify(name)} `))
  }
  t.match((await refusal(rawZip([{ name: 'set.json', data: SET }, { name: 'files/a', data: '1' }, { name: 'files/a', data: '2' }]))).message,
    /the ZIP entry "files\/a" appears twice in the archive/)
  t.match((await refusal(rawZip([{ name: 'set.json', data: SET }, { name: Buffer.from([0x66, 0x2f, 0xff]), data: '' }]))).message,
    /the name of ZIP entry 2 is not UTF-8 text/)
})

t.test('ZIP: set.json must be at the root, and nothing else but files/ beside it', async (t) => {
  t.equal((await refusal(rawZip([{ name: 'files/a.png', data: 'x' }]))).message,
    'file: the ZIP archive has no set.json at its root; an advice-set ZIP holds set.json and its supplement files under files/.')
  t.match((await refusal(rawZip([{ name: 'my set/set.json', data: SET }]))).message, /has its set.json in a folder \("my set\/set.json"\); set.json must be at the archive's root/)
  t.match((await refusal(rawZip([{ name: 'set.json', data: SET }, { name: 'readme.txt', data: 'hi' }]))).message,
    /the ZIP entry "readme.txt" is neither set.json nor under files\//)
  t.match((await refusal(rawZip([]))).message, /no set.json at its root/)
})

t.test('ZIP: caps on the archive, the entries and what they inflate to', async (t) => {
  const huge = Buffer.alloc(MAX_ZIP_BYTES + 1)
  huge.write('PK\u0003\u0004', 'latin1')
  t.equal((await refusal(huge, 'x.zip')).message, 'file: the ZIP archive is larger than 100 MB.')

  const many = Array.from({ length: MAX_ZIP_ENTRIES + 1 }, (_, i): RawEntry => ({ name: i === 0 ? 'set.json' : `files/${i}`, data: i === 0 ? SET : '', method: 0 }))
  t.equal((await refusal(rawZip(many))).message, `file: the ZIP archive has ${MAX_ZIP_ENTRIES + 1} entries; at most ${MAX_ZIP_ENTRIES} are read.`)
  t.ok(await readPortableUpload(rawZip(many.slice(0, MAX_ZIP_ENTRIES)), 'x.zip'), 'as many as the cap are read')

  // A bomb by ratio: 15 MB of white space after a document deflates about 1000:1.
  const spaces = `{}${' '.repeat(15 * 1024 * 1024)}`
  t.match((await refusal(rawZip([{ name: 'set.json', data: spaces }]))).message, /^file: the ZIP entry "set.json" is compressed more than 400:1 \(15728642 bytes from \d+\); it was refused as a ZIP bomb\.$/)
  // Entries each too small to count, together a bomb.
  const small = Array.from({ length: 20 }, (_, i): RawEntry => ({ name: `files/${i}.txt`, data: Buffer.alloc(900 * 1024) }))
  t.match((await refusal(rawZip([{ name: 'set.json', data: SET }, ...small]))).message, /the ZIP archive is compressed more than 400:1 as a whole/)
  // Declared sizes over the caps are refused before anything is inflated (the data here is not even deflate).
  const junk = Buffer.alloc(64 * 1024, 0xab)
  const declared = (size: number, n: number) => Array.from({ length: n }, (_, i): RawEntry => ({ name: `files/${i}`, data: junk, raw: true, declaredSize: size }))
  t.match((await refusal(rawZip([{ name: 'set.json', data: SET }, ...declared(10 * 1024 * 1024, 21)]))).message, /the ZIP archive holds more than 200 MB once uncompressed/)
  t.match((await refusal(rawZip([{ name: 'set.json', data: SET }, ...declared(10 * 1024 * 1024 + 1, 1)]))).message, /"files\/0" is larger than 10 MB, the most a supplement file may hold/)
  t.match((await refusal(rawZip([{ name: 'set.json', data: junk, raw: true, declaredSize: MAX_JSON_BYTES + 1 }]))).message, /"set.json" is larger than 20 MB/)
})

t.test('ZIP: a header that understates its entry stops the inflation at the declared size', async (t) => {
  // 200 MB of zeros declared as 1,000 bytes: inflating it whole would pass every cap.
  const zeros = Buffer.alloc(1024 * 1024)
  const bomb = deflateRawSync(Buffer.concat(Array(200).fill(zeros)))
  const before = process.memoryUsage().rss
  const error = await refusal(rawZip([{ name: 'set.json', data: SET }, { name: 'files/a', data: bomb, raw: true, declaredSize: 1000 }]))
  t.match(error.message, /the ZIP entry "files\/a" inflates to more than the 1000 bytes its header declares/)
  t.ok(process.memoryUsage().rss - before < 50 * 1024 * 1024, 'the bomb was not inflated')
})

t.test('ZIP: damaged or unusual archives are refused with their reason', async (t) => {
  const ok = (more: Partial<RawEntry> = {}): RawEntry => ({ name: 'set.json', data: SET, ...more })
  t.match((await refusal(rawZip([ok({ flags: 0x0801 })]))).message, /"set.json" is encrypted/)
  t.match((await refusal(rawZip([ok({ method: 12 })]))).message, /compressed with method 12; only stored and deflate/)
  t.match((await refusal(rawZip([ok({ crc: 1234 })]))).message, /"set.json" is damaged \(its checksum does not match its content\)/)
  t.match((await refusal(rawZip([ok({ declaredSize: SET.length + 5 })]))).message, /is damaged \(it holds \d+ bytes, its header declares \d+\)/)
  t.match((await refusal(rawZip([ok({ localName: 'other.json' })]))).message, /"set.json" is described differently in its local header and in the central directory/)
  // files/b's local header and data lie inside the stored data of files/a.
  const inner = rawZip([{ name: 'files/b', data: 'x', method: 0 }]).subarray(0, 30 + 'files/b'.length + 1)
  const overlapping = rawZip([{ name: 'files/a', data: inner, method: 0 }, { name: 'files/b', data: 'x', method: 0, headerOffset: 30 + 'files/a'.length }, ok()])
  t.match((await refusal(overlapping)).message, /the ZIP entry "files\/b" overlaps the data of "files\/a" \(a ZIP bomb's trick\)/)
  const whole = rawZip([ok()])
  t.match((await refusal(whole.subarray(0, whole.length - 10))).message, /the ZIP archive cannot be read \(its end record is missing\)/)
  t.match((await refusal(rawZip([ok()], { count: 0xffff }))).message, /ZIP64/)
  t.match((await refusal(rawZip([ok({ data: 'not deflate', raw: true })]))).message, /"set.json" is damaged \(its compressed data cannot be read\)/)
})

t.test('locate: keys with escapes, ~ and /, unicode and nested arrays', async (t) => {
  const text = [
    '{',
    '  "a\\"b": "x\\\\",',
    '  "~/": [[1, [2, {"k": "é😀"}]], "q"],',
    '  "😀": {"": [true, null, -1.5e3]},',
    '  "esc\\u0061ped": "\\"}]",',
    '  "last": {}',
    '}',
  ].join('\n')
  t.same(parsePortableJson(text), JSON.parse(text))
  t.same(locate(text, ''), { line: 1, column: 1 })
  t.same(locate(text, '/a"b'), { line: 2, column: 11 })
  t.same(locate(text, '/~0~1'), { line: 3, column: 9 })
  t.same(locate(text, '/~0~1/0/1/1/k'), { line: 3, column: 24 })
  t.same(locate(text, '/~0~1/1'), { line: 3, column: 33 })
  t.same(locate(text, '/😀//2'), { line: 4, column: 26 }, 'columns count the emoji as one character')
  t.same(locate(text, '/escaped'), { line: 5, column: 19 })
  t.same(locate(text, '/last'), { line: 6, column: 11 })
  t.equal(locate(text, '/~0~1/2'), null, 'past the end of an array')
  t.equal(locate(text, '/~0~1/01'), null, 'an index with a leading zero')
  t.equal(locate(text, '/~0~1/-'), null, 'the element after the last')
  t.equal(locate(text, '/a"b/0'), null, 'inside a string')
  t.equal(locate(text, '/nothing'), null)
  t.equal(locate(text, 'last'), null, 'not a pointer')
  t.equal(locate(text, '/~2'), null, 'a bad escape')
  t.same(locate(`\ufeff${text}`, '/last'), { line: 6, column: 11 }, 'a BOM is not a column')
})

t.test('errorAt places the importer’s errors, at the nearest ancestor for a missing member', async (t) => {
  const text = '{\n  "rules": [\n    {\n      "nodes": [{"type": 7}]\n    }\n  ]\n}\n'
  const wrong = errorAt(text, '/rules/0/nodes/0/type', 'must be text.')
  t.equal(wrong.message, 'file: /rules/0/nodes/0/type (line 4, column 26): must be text.')
  t.match(wrong.details, { field: 'file', pointer: '/rules/0/nodes/0/type', line: 4, column: 26 })
  t.equal(errorAt(text, '/rules/0/name', 'is required.').message, 'file: /rules/0/name (line 3, column 5): is required.')
  t.equal(errorAt(text, '/rules/0/name', 'is required.', 'set.json').message, 'file: set.json /rules/0/name (line 3, column 5): is required.')
})

t.test('property: locate finds the start of every value of a two-space-indented document', async () => {
  const valuesOf = (value: unknown, path: Array<string | number>, out: Array<[string, unknown]>) => {
    out.push([pointerOf(path), value])
    if (Array.isArray(value)) value.forEach((item, i) => valuesOf(item, [...path, i], out))
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) valuesOf(v, [...path, k], out)
    return out
  }
  fc.assert(fc.property(fc.jsonValue({ stringUnit: 'binary', maxDepth: 6 }), (value) => {
    const text = JSON.stringify(value, null, 2)
    for (const [pointer, expected] of valuesOf(JSON.parse(text), [], [])) {
      const found = locateOffset(text, pointer)
      if (found === null) throw new Error(`${pointer} not found`)
      if (JSON.stringify(JSON.parse(text.slice(found.start, found.end))) !== JSON.stringify(expected)) throw new Error(`${pointer} is not its value`)
      const at = locate(text, pointer)
      const { line, column } = lineColumnAt(text, found.start)
      if (at?.line !== line || at.column !== column) throw new Error(`${pointer}: line and column`)
      // The column counts characters from the line's start.
      const lineText = text.split('\n')[line - 1] as string
      if (![...lineText].slice(column - 1).join('').startsWith(text.slice(found.start, Math.min(found.end, text.indexOf('\n', found.start) >>> 0)))) {
        throw new Error(`${pointer}: column ${column} is not where the value starts`)
      }
    }
  }), { numRuns: 300 })
})

t.test('property: what JSON.stringify writes, the scanner reads as JSON.parse does', async () => {
  const storable = (v: unknown): boolean => !/\\u0000|\\ud[89a-f]|"(?:__proto__|constructor|prototype)":/.test(JSON.stringify(v))
  fc.assert(fc.property(fc.jsonValue({ stringUnit: 'binary', maxDepth: 6 }).filter(storable), (value) => {
    const text = JSON.stringify(value, null, 2)
    return JSON.stringify(parsePortableJson(text)) === JSON.stringify(JSON.parse(text))
  }), { numRuns: 300 })
})

t.test('ZIP writer: the same set gives the same bytes, and the reader gives it back', async (t) => {
  const files = new Map<string, Buffer | Readable>([
    ['img/b.png', Buffer.from([0, 1, 2, 255])],
    ['a.txt', Buffer.from('é'.repeat(20_000))],
    ['empty', Buffer.alloc(0)],
  ])
  const first = await buffer(writePortableZip(SET, files))
  const reordered = new Map([...files].reverse())
  t.same(await buffer(writePortableZip(SET, reordered)), first, 'the order of the map does not matter')
  const streamed = new Map<string, Buffer | Readable>([...files].map(([k, v]) => [k, Readable.from([Buffer.from(v as Buffer).subarray(0, 7), Buffer.from(v as Buffer).subarray(7)])]))
  t.same(await buffer(writePortableZip(SET, streamed)), first, 'files given as streams give the same bytes')
  const read = await readPortableUpload(first, 'set.zip')
  t.equal(read.text, SET)
  t.same([...read.files].sort(), [...files].sort())
  t.equal(first.subarray(0, 4).toString('latin1'), 'PK\u0003\u0004')
})

t.test('ZIP writer: refuses paths the reader would refuse', async (t) => {
  for (const path of ['../x', '/x', 'a\\b', 'a//b', 'dir/']) {
    t.throws(() => writePortableZip(SET, new Map([[path, Buffer.from('x')]])), /A supplement file cannot be written as/, path)
  }
})

t.test('ZIP writer: a stream that fails fails the ZIP', async (t) => {
  async function* failing() { yield Buffer.from('a'); throw new Error('the file store closed') }
  await t.rejects(buffer(writePortableZip(SET, new Map([['a', Readable.from(failing())]]))), /the file store closed/)
})
