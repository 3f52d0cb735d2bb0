// POST /api/supplements/upload on the disk store (issue 15 acceptance): 10 MB passes and one byte more is "File too
// large" with no file and no row; the type comes from the bytes (a .png name on HTML is HTML, served sandboxed); a
// client that disconnects midway leaves nothing; thumbnails are at most 148×148 and kept in the store.
import t from 'tap'
import { existsSync, readdirSync, statSync } from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import sharp from 'sharp'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createUser } from '../../helpers/factories.ts'
import { HTML_PAGE, multipartBody, pngOf, upload } from '../../helpers/uploads.ts'
import { supplements } from '../../../src/db/schema/index.ts'

const ctx = await buildTestApp(t)
const db = ctx.database.db
const filesDir = path.join(ctx.config.dataDir, 'files')
const author = await createUser(db, { role: 'author' })
const agent = await signedInAgent(ctx.app, author)
const MB10 = 10 * 1024 * 1024

/** Every file in the store, temporary ones included. */
function storedFiles(): string[] {
  if (!existsSync(filesDir)) return []
  return readdirSync(filesDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(filesDir, path.join(e.parentPath, e.name))).sort()
}
const rowCount = async () => (await db.select({ id: supplements.id }).from(supplements)).length

t.test('exactly 10 MB is stored; 10 MB + 1 byte is refused with "File too large" and leaves no file and no row', async (t) => {
  const ok = await upload(agent, { filename: 'big.bin', data: Buffer.alloc(MB10, 1) })
  t.equal(ok.statusCode, 201)
  const saved = ok.json().data
  t.equal(saved.size, MB10)
  t.equal(saved.format, 'file')
  const [row] = await db.select().from(supplements).where(eq(supplements.id, saved.id))
  t.equal(statSync(path.join(filesDir, row!.storageKey!)).size, MB10, 'the file is in the store, whole')
  t.notOk('storageKey' in saved || 'accessToken' in saved, 'the key and token stay on the server')

  const files = storedFiles()
  const rows = await rowCount()
  const tooBig = await upload(agent, { filename: 'bigger.bin', data: Buffer.alloc(MB10 + 1, 1) })
  t.equal(tooBig.statusCode, 413)
  t.same(tooBig.json(), { error: { status: 413, name: 'Payload Too Large', message: 'File too large' } })
  t.same(storedFiles(), files, 'no file, not even a temporary one')
  t.equal(await rowCount(), rows, 'no row')
})

t.test('the type comes from the bytes: a .png name on HTML is stored as HTML and served sandboxed', async (t) => {
  const res = await upload(agent, { filename: 'chart.png', data: HTML_PAGE, type: 'image/png' })
  t.equal(res.statusCode, 201)
  const saved = res.json().data
  t.match(saved, { format: 'viz', contentType: 'text/html', fileExt: 'html', name: 'chart' })

  const view = await agent.request({ method: 'GET', url: `/api/supplements/${saved.id}/view` })
  t.equal(view.statusCode, 200)
  t.match(view.headers['content-type'], /^text\/html/)
  t.match(view.headers['content-disposition'], /^attachment; filename="chart.html"/, 'the view downloads it')
  t.equal(view.headers['x-content-type-options'], 'nosniff')
  t.match(view.headers['content-security-policy'], /sandbox/)

  const framed = await agent.request({ method: 'GET', url: `/visualizations/${saved.id}/iframe`, headers: { 'sec-fetch-dest': 'iframe' } })
  t.equal(framed.statusCode, 200)
  t.equal(framed.headers['content-security-policy'], 'sandbox allow-scripts', 'scripts run only in an opaque origin')
  t.equal(framed.headers['x-content-type-options'], 'nosniff')
  t.match(framed.headers['content-disposition'], /^inline/)
  t.equal(framed.body, HTML_PAGE.toString())
  t.notOk(framed.headers['x-frame-options'], 'the app may frame it')

  const topLevel = await agent.request({ method: 'GET', url: `/visualizations/${saved.id}/iframe`, headers: { 'sec-fetch-dest': 'document' } })
  t.match(topLevel.headers['content-disposition'], /^attachment/, 'opened as a page of its own it downloads')
  t.equal(topLevel.headers['content-security-policy'], 'sandbox allow-scripts')

  const asMedia = await agent.request({ method: 'GET', url: `/media/${saved.id}/iframe`, headers: { 'sec-fetch-dest': 'iframe' } })
  t.equal(asMedia.statusCode, 404, 'a visualization is not a media item')
})

t.test('SVG is never served inline by the view; a PDF downloads; a raster image shows inline', async (t) => {
  const svg = await upload(agent, { filename: 'logo.svg', data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>') })
  t.match(svg.json().data, { format: 'image', contentType: 'image/svg+xml', fileExt: 'svg' })
  const svgView = await agent.request({ method: 'GET', url: `/api/supplements/${svg.json().data.id}/view` })
  t.match(svgView.headers['content-disposition'], /^attachment/)
  const pdf = await upload(agent, { filename: 'guide.pdf', data: Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n', 'latin1') })
  t.match(pdf.json().data, { format: 'file', contentType: 'application/pdf', fileExt: 'pdf' })
  t.match((await agent.request({ method: 'GET', url: `/api/supplements/${pdf.json().data.id}/view` })).headers['content-disposition'], /^attachment; filename="guide.pdf"/)
  const png = await upload(agent, { filename: 'photo.html', data: await pngOf(20, 10) })
  t.match(png.json().data, { format: 'image', contentType: 'image/png', fileExt: 'png', name: 'photo' }, 'a PNG named .html is a PNG')
  const pngView = await agent.request({ method: 'GET', url: `/api/supplements/${png.json().data.id}/view` })
  t.equal(pngView.headers['content-type'], 'image/png')
  t.match(pngView.headers['content-disposition'], /^inline/)
  const download = await agent.request({ method: 'GET', url: `/api/supplements/${png.json().data.id}/view?format=download` })
  t.match(download.headers['content-disposition'], /^attachment; filename="photo.png"/)
})

t.test('thumbnails are 148×148 at most, JPEG at quality 60, made once and kept in the store', async (t) => {
  const res = await upload(agent, { filename: 'wide.png', data: await pngOf(600, 400) })
  const id = res.json().data.id
  const thumb = await agent.request({ method: 'GET', url: `/api/supplements/${id}/view?thumbnail=148x148` })
  t.equal(thumb.statusCode, 200)
  t.equal(thumb.headers['content-type'], 'image/jpeg')
  const meta = await sharp(thumb.rawPayload).metadata()
  t.equal(meta.format, 'jpeg')
  t.ok(meta.width! <= 148 && meta.height! <= 148, `${meta.width}×${meta.height}`)
  t.equal(meta.width, 148, 'the longer side fills the box')
  const small = await upload(agent, { filename: 'tiny.png', data: await pngOf(40, 30) })
  const tiny = await sharp((await agent.request({ method: 'GET', url: `/api/supplements/${small.json().data.id}/view?thumbnail=148x148` })).rawPayload).metadata()
  t.same([tiny.width, tiny.height], [40, 30], 'a small image is not enlarged')

  const thumbnails = storedFiles().filter((f) => f.startsWith('thumbnails/'))
  t.equal(thumbnails.length, 2, 'kept in the store')
  const again = await agent.request({ method: 'GET', url: `/api/supplements/${id}/view?thumbnail=148x148` })
  t.ok(again.rawPayload.equals(thumb.rawPayload), 'the second request gets the stored one')
  t.equal(storedFiles().filter((f) => f.startsWith('thumbnails/')).length, 2)

  const odd = await agent.request({ method: 'GET', url: `/api/supplements/${id}/view?thumbnail=5000x5000` })
  t.equal(odd.statusCode, 400)
  t.match(odd.json().error, { field: 'thumbnail' })
  const html = await upload(agent, { filename: 'c.html', data: HTML_PAGE })
  const noThumb = await agent.request({ method: 'GET', url: `/api/supplements/${html.json().data.id}/view?thumbnail=148x148` })
  t.equal(noThumb.statusCode, 400)
  t.match(noThumb.json().error.message, 'only images have thumbnails')
})

t.test('bad uploads are named: no file, an empty file, not multipart, a viewer', async (t) => {
  const none = await upload(agent, null, { name: 'Nothing' })
  t.equal(none.statusCode, 400)
  t.match(none.json().error, { field: 'file', message: 'file: choose a file to upload.' })
  const empty = await upload(agent, { filename: 'empty.txt', data: Buffer.alloc(0) })
  t.equal(empty.statusCode, 400)
  t.match(empty.json().error.message, '“empty.txt” is empty')
  const json = await agent.api('POST', '/api/supplements/upload', { file: 'x' })
  t.equal(json.statusCode, 415)
  const viewer = await signedInAgent(ctx.app, await createUser(db, { role: 'viewer', ownerId: author.ownerId }))
  const rows = await rowCount()
  const refused = await upload(viewer, { filename: 'a.txt', data: Buffer.from('hello') })
  t.equal(refused.statusCode, 403)
  t.equal(await rowCount(), rows)
  const badType = await upload(agent, { filename: 'a.txt', data: Buffer.from('hello') }, { type: 'poster' })
  t.equal(badType.statusCode, 400)
  t.match(badType.json().error, { field: 'type' })
  t.equal(await rowCount(), rows, 'a refused field stores nothing')
  t.same(storedFiles().filter((f) => f.startsWith('.incoming/')), [], 'no temporary files left')
})

t.test('a client that disconnects midway leaves no file and no row', async (t) => {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' })
  const address = ctx.app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const rows = await rowCount()
  const committed = storedFiles().filter((f) => !f.startsWith('.incoming/'))
  const { payload, contentType } = await multipartBody({ filename: 'half.bin', data: Buffer.alloc(4 * 1024 * 1024, 2) })
  const socket = net.connect(port, '127.0.0.1')
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()))
  socket.write([
    'POST /api/supplements/upload HTTP/1.1', 'Host: 127.0.0.1', `Cookie: ${agent.cookieHeader}`, `x-csrf-token: ${agent.csrfToken}`,
    'Accept: application/json', `Content-Type: ${contentType}`, `Content-Length: ${payload.length}`, '', '',
  ].join('\r\n'))
  socket.write(payload.subarray(0, 1024 * 1024))
  // Waits until the server is writing the upload to the store, then goes away.
  const incoming = path.join(filesDir, '.incoming')
  while (!existsSync(incoming) || readdirSync(incoming).length === 0) await new Promise((resolve) => setImmediate(resolve))
  socket.destroy()
  while (readdirSync(incoming).length > 0) await new Promise((resolve) => setImmediate(resolve))
  t.same(storedFiles().filter((f) => !f.startsWith('.incoming/')), committed, 'nothing committed')
  t.equal(await rowCount(), rows, 'no row')
})
