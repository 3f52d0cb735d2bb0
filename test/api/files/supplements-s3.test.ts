// Uploads on the S3 store (S3_URL), against a local S3-compatible server started here (s3rver; skipped with the reason
// only if it cannot start): 10 MB is stored as an object, one byte more is "File too large" with no object, no
// temporary file and no row; views and thumbnails stream from the bucket; the row says its source is S3.
import t from 'tap'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { eq } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createUser } from '../../helpers/factories.ts'
import { startLocalS3 } from '../../helpers/s3.ts'
import { pngOf, upload } from '../../helpers/uploads.ts'
import { s3FileStore } from '../../../src/files/s3.ts'
import { supplements } from '../../../src/db/schema/index.ts'

const s3 = await startLocalS3()
if (!('skip' in s3)) t.teardown(() => s3.close())
t.test('uploads on S3', { skip: 'skip' in s3 ? s3.skip : false }, async (t) => {
  if ('skip' in s3) return
  const spoolDir = mkdtempSync(path.join(os.tmpdir(), 'supplements-s3-spool-'))
  t.teardown(() => rmSync(spoolDir, { recursive: true, force: true }))
  const env = {
    S3_URL: s3.config.endpoint, S3_BUCKET: s3.config.bucket, S3_ACCESS_KEY_ID: s3.config.accessKeyId, S3_SECRET_ACCESS_KEY: s3.config.secretAccessKey,
  }
  const store = s3FileStore(s3.config, { spoolDir })
  t.teardown(() => store.close())
  const ctx = await buildTestApp(t, env, { files: (config) => {
    if (!config.s3) throw new Error('S3_URL did not reach the config')
    return store
  } })
  const db = ctx.database.db
  const agent = await signedInAgent(ctx.app, await createUser(db, { role: 'author' }))
  const MB10 = 10 * 1024 * 1024
  const rowCount = async () => (await db.select({ id: supplements.id }).from(supplements)).length

  t.test('10 MB becomes an object; 10 MB + 1 byte leaves no object, no temporary file and no row', async (t) => {
    const ok = await upload(agent, { filename: 'ten.bin', data: Buffer.alloc(MB10, 3) })
    t.equal(ok.statusCode, 201)
    const [row] = await db.select().from(supplements).where(eq(supplements.id, ok.json().data.id))
    t.equal(row!.source, 'S3')
    t.ok((await s3.keys()).includes(row!.storageKey!), 'the object is in the bucket')
    t.same(readdirSync(spoolDir), [], 'the spooled copy is gone')

    const keys = await s3.keys()
    const rows = await rowCount()
    const tooBig = await upload(agent, { filename: 'eleven.bin', data: Buffer.alloc(MB10 + 1, 3) })
    t.equal(tooBig.statusCode, 413)
    t.equal(tooBig.json().error.message, 'File too large')
    t.same(await s3.keys(), keys, 'no new object')
    t.same(readdirSync(spoolDir), [], 'no temporary file')
    t.equal(await rowCount(), rows, 'no row')
  })

  t.test('views and thumbnails stream from the bucket, the thumbnail kept there', async (t) => {
    const res = await upload(agent, { filename: 'photo.png', data: await pngOf(300, 200) })
    const id = res.json().data.id
    const view = await agent.request({ method: 'GET', url: `/api/supplements/${id}/view` })
    t.equal(view.statusCode, 200)
    t.equal(view.headers['content-type'], 'image/png')
    const thumb = await agent.request({ method: 'GET', url: `/api/supplements/${id}/view?thumbnail=148x148` })
    const meta = await sharp(thumb.rawPayload).metadata()
    t.ok(meta.width! <= 148 && meta.height! <= 148)
    t.ok((await s3.keys()).some((key) => key.startsWith('thumbnails/')), 'cached in the bucket')
  })
})
