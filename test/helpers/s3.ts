// A local S3-compatible server (s3rver, a devDependency) on 127.0.0.1 for the S3 file store's tests and benchmark.
// It keeps its objects in a temporary folder; the credentials are s3rver's fixed ones.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import type { S3Config } from '../../src/config.ts'

export interface LocalS3 {
  config: S3Config
  /** Every key in the bucket. */
  keys(): Promise<string[]>
  close(): Promise<void>
}

/** The server, or the reason it could not start (the S3 tests then skip with it). */
export async function startLocalS3(): Promise<LocalS3 | { skip: string }> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'advice-studio-s3rver-'))
  const bucket = 'advice-files'
  let server: { close(): Promise<void> }
  let port: number
  try {
    const { default: S3rver } = await import('s3rver')
    const s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] })
    port = (await s3rver.run()).port
    server = s3rver
  } catch (error) {
    rmSync(directory, { recursive: true, force: true })
    return { skip: `the local S3 server (s3rver) could not start: ${error instanceof Error ? error.message : String(error)}` }
  }
  const config: S3Config = {
    endpoint: `http://127.0.0.1:${port}`, bucket, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true,
  }
  const client = new S3Client({
    endpoint: config.endpoint, region: config.region, forcePathStyle: true,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
  })
  return {
    config,
    async keys() {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }))
      return (listed.Contents ?? []).map((object) => object.Key ?? '').sort()
    },
    async close() {
      client.destroy()
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
