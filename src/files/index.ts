// The file store the config asks for: S3-compatible when S3_URL is set, else the local disk under DATA_DIR/files.
import path from 'node:path'
import type { Config } from '../config.ts'
import { diskFileStore } from './disk.ts'
import { s3FileStore } from './s3.ts'
import type { FileStore } from './types.ts'

export type { FileStore, StagedFile, StoredFile } from './types.ts'
export { FileTooLargeError } from './types.ts'

export function createFileStore(config: Pick<Config, 'dataDir' | 's3'>): FileStore {
  return config.s3 ? s3FileStore(config.s3) : diskFileStore(path.join(config.dataDir, 'files'))
}
