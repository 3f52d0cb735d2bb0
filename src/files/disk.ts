// Files on the local disk under one folder (DATA_DIR/files): staged in its `.incoming` folder on the same file
// system, so committing is an atomic rename.
import { access, mkdir, open, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { spool } from './spool.ts'
import { assertKey, type FileStore, type StagedFile, type StoredFile } from './types.ts'

const INCOMING = '.incoming'

export function diskFileStore(root: string): FileStore {
  const pathOf = (key: string) => {
    assertKey(key)
    return path.join(root, key)
  }
  const incoming = path.join(root, INCOMING)

  return {
    kind: 'disk',

    async check() {
      await mkdir(incoming, { recursive: true })
      await access(root, 2 /* W_OK */)
    },

    async stage(body: Readable, opts: { maxBytes: number }): Promise<StagedFile> {
      const staged = await spool(incoming, body, opts.maxBytes)
      return {
        size: staged.size,
        head: staged.head,
        async commit(key) {
          const target = pathOf(key)
          await mkdir(path.dirname(target), { recursive: true })
          await rename(staged.file, target)
        },
        discard: () => rm(staged.file, { force: true }),
      }
    },

    async read(key): Promise<StoredFile | null> {
      // Opened first, so the size and the bytes come from the same file even if it is replaced meanwhile.
      const handle = await open(pathOf(key), 'r').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null
        throw error
      })
      if (!handle) return null
      const { size } = await handle.stat()
      return { stream: handle.createReadStream(), size }
    },

    async exists(key) {
      return access(pathOf(key)).then(() => true, () => false)
    },

    async delete(key) {
      await rm(pathOf(key), { force: true })
    },

    async close() {},
  }
}
