// Files in an S3-compatible bucket (S3_URL). Uploads are staged on the local disk first: S3 wants each object's
// length before its bytes, and a spooled file gives it without holding the file in memory. A PutObject is atomic,
// so an object is either whole in the bucket or not there.
import { createReadStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import type { S3Client } from '@aws-sdk/client-s3'
import type { S3Config } from '../config.ts'
import { spool } from './spool.ts'
import { assertKey, type FileStore, type StagedFile, type StoredFile } from './types.ts'

/** The AWS SDK (~0.4 s to load) is loaded when an S3 store is made, not by every process that imports the stores. */
type Sdk = typeof import('@aws-sdk/client-s3')

function isNotFound(sdk: Sdk, error: unknown): boolean {
  return error instanceof sdk.S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey' || error.name === 'NotFound')
}

/** `spoolDir`: where uploads wait on the local disk before they go to S3 (default: the system's temporary folder). */
export function s3FileStore(config: S3Config, opts: { spoolDir?: string } = {}): FileStore {
  const spoolDir = opts.spoolDir ?? path.join(os.tmpdir(), 'advice-studio-s3-spool')
  const ready: Promise<{ sdk: Sdk; client: S3Client }> = import('@aws-sdk/client-s3').then((sdk) => ({ sdk, client: new sdk.S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // Checksums only where S3 requires them: many S3-compatible servers refuse the SDK's newer default trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  }) }))
  // A failed load is reported by the first call that needs the SDK, not as an unhandled rejection.
  ready.catch(() => undefined)
  const bucket = config.bucket

  return {
    kind: 's3',

    async check() {
      const { sdk, client } = await ready
      try {
        await client.send(new sdk.HeadBucketCommand({ Bucket: bucket }))
      } catch (error) {
        const status = error instanceof sdk.S3ServiceException ? ` (${error.$metadata.httpStatusCode ?? error.name})` : ''
        throw new Error(`S3 bucket "${bucket}" at ${config.endpoint} cannot be used${status}: ${error instanceof Error ? error.message : String(error)}`)
      }
    },

    async stage(body, opts): Promise<StagedFile> {
      const staged = await spool(spoolDir, body, opts.maxBytes)
      return {
        size: staged.size,
        head: staged.head,
        async commit(key, contentType) {
          assertKey(key)
          try {
            const { sdk, client } = await ready
            await client.send(new sdk.PutObjectCommand({
              Bucket: bucket, Key: key, Body: createReadStream(staged.file), ContentLength: staged.size, ContentType: contentType,
            }))
          } finally {
            await rm(staged.file, { force: true })
          }
        },
        discard: () => rm(staged.file, { force: true }),
      }
    },

    async read(key): Promise<StoredFile | null> {
      assertKey(key)
      const { sdk, client } = await ready
      try {
        const object = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }))
        if (!(object.Body instanceof Readable)) throw new Error(`S3 answered ${key} without a readable body`)
        return { stream: object.Body, size: object.ContentLength ?? 0 }
      } catch (error) {
        if (isNotFound(sdk, error)) return null
        throw error
      }
    },

    async exists(key) {
      assertKey(key)
      const { sdk, client } = await ready
      try {
        await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: key }))
        return true
      } catch (error) {
        if (isNotFound(sdk, error)) return false
        throw error
      }
    },

    async delete(key) {
      assertKey(key)
      const { sdk, client } = await ready
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }))
    },

    async close() {
      const loaded = await ready.catch(() => null)
      loaded?.client.destroy()
    },
  }
}
