// Issue 22 finding 2: bad multipart input on the upload routes is a 4xx with a message in the app's error shape, never
// a 500, and stores nothing: NUL in a field or a file name, a body cut off before its closing boundary, a body with no
// boundary, fields that are not plain text or too long, a declared length over the route's limit (answered at once,
// before any of the body is read) and a chunked body that streams past it (cut off while streaming).
import t, { type Test } from 'tap'
import http from 'node:http'
import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createUser } from '../../helpers/factories.ts'
import { multipartBody } from '../../helpers/uploads.ts'
import { supplements } from '../../../src/db/schema/index.ts'

const ctx = await buildTestApp(t)
const db = ctx.database.db
const filesDir = path.join(ctx.config.dataDir, 'files')
const author = await createUser(db, { role: 'author' })
const agent = await signedInAgent(ctx.app, author)

function storedFiles(): string[] {
  if (!existsSync(filesDir)) return []
  return readdirSync(filesDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(filesDir, path.join(e.parentPath, e.name))).sort()
}
const rowCount = async () => (await db.select({ id: supplements.id }).from(supplements)).length

/** The upload routes: the API the uploader island uses, and the libraries' plain forms (CSRF token in the query). */
const UPLOAD_URLS = ['/api/supplements/upload', '/media/new', '/visualizations/new']
const urlOf = (url: string) => (url.startsWith('/api/') ? url : `${url}?_csrf=${encodeURIComponent(agent.csrfToken)}`)

async function post(url: string, payload: Buffer | string, contentType: string) {
  return agent.request({
    method: 'POST', url: urlOf(url), payload,
    headers: { accept: 'application/json', 'content-type': contentType, 'x-csrf-token': agent.csrfToken },
  })
}

/** Every case refused with `status`, naming `field` (when given) with a message matching `message`; nothing stored. */
async function refused(t: Test, what: string, url: string, payload: Buffer | string, contentType: string, expected: { status: number; field?: string; message: RegExp }) {
  const rows = await rowCount()
  const files = storedFiles()
  const res = await post(url, payload, contentType)
  t.equal(res.statusCode, expected.status, `${url} ${what}: ${expected.status}`)
  if (res.headers['content-type']?.toString().includes('json')) {
    const error = res.json().error
    t.match(error, { status: expected.status, message: expected.message }, `${url} ${what}: ${error?.message}`)
    if (expected.field) t.equal(error.field, expected.field, `${url} ${what}: names ${expected.field}`)
  } else if (expected.field === 'file' || expected.field === 'name') {
    // The library page shows the form again with the message beside the field (the plain form has only these).
    t.match(res.body, expected.message, `${url} ${what}: the page says why`)
  }
  t.equal(await rowCount(), rows, `${url} ${what}: no row`)
  t.same(storedFiles(), files, `${url} ${what}: no file, not even a temporary one`)
}

const file = { filename: 'notes.txt', data: Buffer.from('hello') }

t.test('NUL in a text field or in the file name: 400 naming it', async (t) => {
  for (const url of UPLOAD_URLS) {
    const html = url === '/visualizations/new' ? { filename: 'chart.html', data: Buffer.from('<!doctype html><p>x</p>') } : file
    const nulName = await multipartBody(html, { name: 'x\u0000y' })
    await refused(t, 'NUL in name', url, nulName.payload, nulName.contentType, { status: 400, field: 'name', message: /name: must not contain NUL/ })
    const nulDescription = await multipartBody(html, { description: 'a\u0000' })
    await refused(t, 'NUL in description', url, nulDescription.payload, nulDescription.contentType, { status: 400, field: 'description', message: /description: must not contain NUL/ })
    const nulFile = await multipartBody({ ...html, filename: 'a\u0000.txt' })
    await refused(t, 'NUL in the file name', url, nulFile.payload, nulFile.contentType, { status: 400, field: 'file', message: /file: must not contain NUL/ })
  }
})

t.test('a body cut off before its closing boundary, or without a boundary: 400 with a message', async (t) => {
  const { payload, contentType } = await multipartBody(file, { name: 'Notes', description: 'Some notes' })
  const cuts: Array<[string, number]> = [
    ['before the closing boundary', payload.length - 8],
    ['inside the file', payload.indexOf('hello') + 2],
    ['inside a part header', payload.indexOf('Content-Disposition') + 10],
    ['after the first boundary', payload.indexOf('\r\n') + 2],
  ]
  for (const url of UPLOAD_URLS) {
    for (const [what, at] of cuts) {
      await refused(t, `cut ${what}`, url, payload.subarray(0, at), contentType, { status: 400, field: 'file', message: /ended before its closing boundary|malformed header/ })
    }
    await refused(t, 'no boundary', url, payload, 'multipart/form-data', { status: 400, field: 'file', message: /needs a boundary/ })
    // busboy reads an empty boundary as a body without parts.
    await refused(t, 'an empty boundary', url, payload, 'multipart/form-data; boundary=', { status: 400, field: 'file', message: /needs a boundary|choose a file/ })
    await refused(t, 'a boundary of 300 characters', url, payload, `multipart/form-data; boundary=${'b'.repeat(300)}`, { status: 400, field: 'file', message: /needs a boundary/ })
  }
})

t.test('fields that are not plain text, or longer than a field may be', async (t) => {
  const boundary = 'xBoundary'
  const body = (parts: string[]) => Buffer.from(`${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}--${boundary}--\r\n`)
  const filePart = 'Content-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nhello'
  const json = body(['Content-Disposition: form-data; name="name"\r\nContent-Type: application/json\r\n\r\n{"a":1}', filePart])
  const long = body([`Content-Disposition: form-data; name="description"\r\n\r\n${'d'.repeat(17 * 1024)}`, filePart])
  for (const url of UPLOAD_URLS.slice(0, 2)) {
    await refused(t, 'a JSON field', url, json, `multipart/form-data; boundary=${boundary}`, { status: 400, field: 'name', message: /name: send it as plain text/ })
    await refused(t, 'a 17 KB field', url, long, `multipart/form-data; boundary=${boundary}`, { status: 400, field: 'description', message: /description: must be at most 16 KB/ })
  }
})

// Over a real connection: a declared length is answered before the body is sent, a streamed one while it streams.
await ctx.app.listen({ port: 0, host: '127.0.0.1' })
const address = ctx.app.server.address()
const port = typeof address === 'object' && address ? address.port : 0

/** Starts a request (the caller writes its body, or not) and resolves with the answer: status, headers, body. */
function openRequest(url: string, headers: Record<string, string>) {
  const request = http.request({ host: '127.0.0.1', port, method: 'POST', path: url, headers: { cookie: agent.cookieHeader, 'x-csrf-token': agent.csrfToken, accept: 'application/json', ...headers } })
  const state = { responded: false }
  const answered = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    request.once('response', (res) => {
      state.responded = true
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { body += chunk })
      res.once('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
      res.once('error', reject)
    })
    // The server closes the connection after its answer while the client may still be writing (EPIPE): not a failure
    // once the answer has come.
    request.on('error', (error) => { if (!state.responded) reject(error) })
  })
  return { request, answered, state }
}

/** Fails the test rather than waiting on an answer that never comes (what a declared 10 GB used to get). */
function within<T>(what: string, promise: Promise<T>, ms = 15_000): Promise<T> {
  let timer: NodeJS.Timeout
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer to ${what} within ${ms / 1000} s`)), ms) })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

t.test('an upload declaring Content-Length: 10737418240 gets 413 at once, before any of its body is sent', async (t) => {
  const rows = await rowCount()
  for (const url of UPLOAD_URLS) {
    const { request, answered } = openRequest(urlOf(url), { 'content-type': 'multipart/form-data; boundary=x', 'content-length': '10737418240' })
    request.flushHeaders()
    const res = await within(`${url} declaring 10 GB`, answered)
    request.destroy()
    t.equal(res.status, 413, `${url}: 413`)
    if (url.startsWith('/api/')) t.same(JSON.parse(res.body), { error: { status: 413, name: 'Payload Too Large', message: 'The request body is larger than this address accepts (at most 11 MB).' } })
    else t.match(res.body, /larger than this address accepts/)
  }
  // Any route: its own limit (1 MB for JSON), checked before the session is read.
  const { request, answered } = openRequest('/api/tags', { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) })
  request.flushHeaders()
  const json = await within('a JSON route declaring 2 MB', answered)
  request.destroy()
  t.equal(json.status, 413)
  t.match(JSON.parse(json.body).error.message, /at most 1 MB/)
  t.equal(await rowCount(), rows)
})

t.test('a chunked upload is cut off with 413 once it streams past the limit, before it ends', async (t) => {
  const rows = await rowCount()
  const files = storedFiles()
  // A file without end passes two limits at about the same point: the file's own 10 MB (the store refuses it with
  // "File too large") and the body's 11 MB (counted as the request's bytes arrive). Which is reached first depends on
  // how far the request's bytes run ahead of the store on a busy machine; either is a 413 before the body ends.
  const bodyCap = /^The request body is larger than this address accepts \(at most 11 MB\)\.$/
  const eitherCap = /^(File too large|The request body is larger than this address accepts \(at most 11 MB\)\.)$/
  for (const [what, lead, message] of [
    ['a preamble that never reaches a boundary', '', bodyCap],
    ['a file without end', '--x\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n', eitherCap],
  ] as const) {
    const { request, answered, state } = openRequest('/api/supplements/upload', { 'content-type': 'multipart/form-data; boundary=x', 'transfer-encoding': 'chunked' })
    request.write(lead)
    const chunk = Buffer.alloc(64 * 1024, 0x61)
    // Three times the limit at most, never ending the body: without the cap the server would wait for its end.
    for (let sent = 0; !state.responded && !request.destroyed && sent < 3 * 11 * 1024 * 1024; sent += chunk.length) {
      if (!request.write(chunk)) await Promise.race([new Promise((resolve) => request.once('drain', resolve)), answered.catch(() => {})])
    }
    const res = await within(`chunked upload with ${what}`, answered)
    request.destroy()
    t.equal(res.status, 413, `${what}: 413`)
    t.match(JSON.parse(res.body).error.message, message)
  }
  t.equal(await rowCount(), rows, 'no row')
  t.same(storedFiles(), files, 'no file, not even a temporary one')
})
