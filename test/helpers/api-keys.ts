// API keys for tests, issued through the same service the admin pages use (settings taken as given).
import type { Db } from '../../src/db/client.ts'
import type { ApiKeyEnvironment } from '../../src/db/schema/index.ts'
import type { ListedApiKey } from '../../src/db/queries/api-keys.ts'
import { issueApiKey } from '../../src/services/delivery/api-keys.ts'

export interface CreateApiKeyOptions {
  ownerId: string
  name?: string
  environment?: ApiKeyEnvironment
  allowedAdviceSetIds?: number[]
  allowedOrigins?: string[]
  audienceId?: number | null
  rateLimit?: number
  adviceRequests?: boolean
  /** Default: as the admin pages give it (preview keys yes, production keys no). */
  explain?: boolean
}

export async function createApiKey(db: Db, opts: CreateApiKeyOptions): Promise<{ key: ListedApiKey; secret: string }> {
  return issueApiKey(db, {
    ownerId: opts.ownerId,
    name: opts.name ?? `Test key ${Math.random().toString(36).slice(2, 8)}`,
    environment: opts.environment ?? 'production',
    audienceId: opts.audienceId ?? null,
    allowedAdviceSetIds: opts.allowedAdviceSetIds ?? [],
    allowedOrigins: opts.allowedOrigins ?? [],
    rateLimit: opts.rateLimit ?? 600,
    adviceRequests: opts.adviceRequests ?? false,
    explain: opts.explain ?? opts.environment === 'preview',
    createdBy: null,
  })
}
