// External API definitions for tests and benches, stored through the query layer (no activity rows), secrets sealed
// as the service seals them.
import type { Db } from '../../src/db/client.ts'
import { insertExternalApi, type ExternalApiRow, type ExternalApiSettings } from '../../src/db/queries/external-apis.ts'
import { sealHeaders } from '../../src/services/integrations/api-definition.ts'

export async function createExternalApiDefinition(db: Db, secretKey: string, opts: Partial<ExternalApiSettings> & { ownerId: string; urlTemplate: string }): Promise<ExternalApiRow> {
  return insertExternalApi(db, {
    name: 'Rates', method: 'GET', bodyTemplate: '', timeoutMs: 2000, responseMapping: [], cacheTtlSeconds: 300, sampleResponse: '',
    ...opts,
    headers: sealHeaders(opts.headers ?? [], secretKey),
    createdBy: null,
  })
}
