// Decision records made directly in the table (not through the Advice API), for tests that need many of them, or
// ones on chosen days, keys, versions, statuses and outcomes.
import { randomUUID } from 'node:crypto'
import type { Db } from '../../src/db/client.ts'
import { insertDecisionRecords, type NewDecisionRecord } from '../../src/db/queries/decisions.ts'

export type RecordFields = Partial<NewDecisionRecord> & Pick<NewDecisionRecord, 'ownerId' | 'adviceSetId' | 'versionId' | 'apiKeyId'>

/** `count` records from `base`, the i-th changed by `vary(i)`; inserted in batches. Returns what was inserted. */
export async function insertRecords(db: Db, count: number, base: RecordFields, vary: (i: number) => Partial<NewDecisionRecord> = () => ({})): Promise<NewDecisionRecord[]> {
  const rows: NewDecisionRecord[] = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(), receivedAt: new Date(), versionNumber: 1, environment: 'production', endpoint: 'api', contentType: 'text',
    inputs: { Age: 40 }, status: 'complete', adviceNodeIds: [], hasErrors: false, outcome: { items: [], errors: [] }, engineMicros: 120,
    ...base, ...vary(i),
  }))
  for (let i = 0; i < rows.length; i += 500) await insertDecisionRecords(db, rows.slice(i, i + 500))
  return rows
}
