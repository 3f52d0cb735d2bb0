// The FileStore contract (src/files/types.ts), the same cases on both stores: the local disk, and S3 through a local
// S3-compatible server (s3rver) started here on 127.0.0.1 — skipped with the reason only if it cannot start.
import t, { type Test } from 'tap'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { diskFileStore } from '../../../src/files/disk.ts'
import { s3FileStore } from '../../../src/files/s3.ts'
import { FileTooLargeError, HEAD_BYTES, type FileStore } from '../../../src/files/types.ts'
import { startLocalS3 } from '../../helpers/s3.ts'

interface Subject {
  store: FileStore
  /** Every stored key plus every temporary file left anywhere: empty after a failed upload. */
  leftovers(): Promise<string[]>
}

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
  } catch {
    return []
  }
}

const bytes = (size: number, seed = 7) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + seed) % 256))

/** A stream of `total` bytes in chunks, as an upload arrives. */
function chunked(data: Buffer, chunk = 64 * 1024): Readable {
  let at = 0
  return new Readable({
    read() {
      if (at >= data.length) return void this.push(null)
      this.push(data.subarray(at, at += chunk))
    },
  })
}

/** A client that sends part of its file and goes away. */
function broken(sent: number): Readable {
  let done = false
  return new Readable({
    read() {
      if (done) return
      done = true
      this.push(bytes(sent))
      setImmediate(() => this.destroy(new Error('the client went away')))
    },
  })
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

const MAX = 1024 * 1024

function contract(t: Test, subject: () => Subject) {
  t.test('a committed file reads back byte for byte, with its size', async (t) => {
    const { store } = subject()
    const data = bytes(MAX - 5)
    const staged = await store.stage(chunked(data), { maxBytes: MAX })
    t.equal(staged.size, data.length)
    t.same(staged.head, data.subarray(0, HEAD_BYTES), 'the head is the first bytes')
    t.equal(await store.exists('supplements/a.bin'), false, 'nothing under the key before commit')
    await staged.commit('supplements/a.bin', 'application/octet-stream')
    t.equal(await store.exists('supplements/a.bin'), true)
    const stored = await store.read('supplements/a.bin')
    t.equal(stored?.size, data.length)
    t.ok((await readAll(stored!.stream)).equals(data), 'same bytes')
  })

  t.test('exactly the limit is stored; one byte more is FileTooLargeError and leaves nothing', async (t) => {
    const { store, leftovers } = subject()
    const before = await leftovers()
    const fits = await store.stage(chunked(bytes(MAX)), { maxBytes: MAX })
    t.equal(fits.size, MAX)
    await fits.discard()
    await t.rejects(store.stage(chunked(bytes(MAX + 1)), { maxBytes: MAX }), FileTooLargeError)
    t.same(await leftovers(), before, 'no file and no temporary file')
  })

  t.test('a stream that fails midway (a client that disconnects) leaves nothing', async (t) => {
    const { store, leftovers } = subject()
    const before = await leftovers()
    await t.rejects(store.stage(broken(200_000), { maxBytes: MAX }), /went away/)
    t.same(await leftovers(), before)
  })

  t.test('a discarded file was never stored', async (t) => {
    const { store, leftovers } = subject()
    const before = await leftovers()
    const staged = await store.stage(chunked(bytes(1000)), { maxBytes: MAX })
    await staged.discard()
    t.same(await leftovers(), before)
  })

  t.test('commit replaces what the key held; delete removes it; a missing key reads as null', async (t) => {
    const { store } = subject()
    await (await store.stage(chunked(bytes(10, 1)), { maxBytes: MAX })).commit('thumbnails/x.jpg', 'image/jpeg')
    await (await store.stage(chunked(bytes(20, 2)), { maxBytes: MAX })).commit('thumbnails/x.jpg', 'image/jpeg')
    const stored = await store.read('thumbnails/x.jpg')
    t.ok((await readAll(stored!.stream)).equals(bytes(20, 2)))
    await store.delete('thumbnails/x.jpg')
    t.equal(await store.read('thumbnails/x.jpg'), null)
    t.equal(await store.exists('thumbnails/x.jpg'), false)
    await store.delete('thumbnails/x.jpg')
    t.pass('deleting a missing file is not an error')
  })

  t.test('keys that could leave the store are refused', async (t) => {
    const { store } = subject()
    const staged = await store.stage(chunked(bytes(5)), { maxBytes: MAX })
    await t.rejects(staged.commit('../outside', 'text/plain'), /Invalid file key/)
    await t.rejects(store.read('/etc/passwd'), /Invalid file key/)
    await staged.discard()
  })
}

t.test('disk store', async (t) => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'file-store-disk-'))
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  const store = diskFileStore(root)
  await store.check()
  contract(t, () => ({ store, leftovers: async () => filesUnder(root) }))
})

const s3 = await startLocalS3()
if (!('skip' in s3)) t.teardown(() => s3.close())
t.test('S3 store', { skip: 'skip' in s3 ? s3.skip : false }, async (t) => {
  if ('skip' in s3) return
  const spoolDir = mkdtempSync(path.join(os.tmpdir(), 'file-store-spool-'))
  const store = s3FileStore(s3.config, { spoolDir })
  t.teardown(async () => {
    await store.close()
    rmSync(spoolDir, { recursive: true, force: true })
  })
  await store.check()
  contract(t, () => ({ store, leftovers: async () => [...await s3.keys(), ...filesUnder(spoolDir).map((f) => `spool:${f}`)] }))

  t.test('check() names the bucket it cannot use', async (t) => {
    const missing = s3FileStore({ ...s3.config, bucket: 'no-such-bucket' }, { spoolDir })
    await t.rejects(missing.check(), /S3 bucket "no-such-bucket"/)
    await missing.close()
  })
})
