// Decision records made directly in the table (not through the Advice API), for tests that need many of them, or
// ones on chosen days, keys, versions, statuses and outcomes.
import { randomUUID } from 'node:crypto'
import type { Db } from '../../src/db/client.ts'
import { insertDecisionRecords, type NewDecisionRecord } from '../../src/db/queries/decisions.ts'
import { compileAdviceSet, evaluate } from '../../src/engine/index.ts'
import { PERSONAL_PLACEHOLDER, recordedOutcome } from '../../src/services/decisions/build.ts'
import { decisionIdAt } from '../../src/services/decisions/decision-id.ts'
import type { VersionSnapshot } from '../../src/services/publishing/snapshot.ts'

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

/**
 * Records of answers as a published version gave them (the engine's run, recorded as the Advice API records it), one a
 * second from `start`; `personal` answers keep that variable only as the placeholder, as personal variables are kept.
 */
export async function recordAnswers(db: Db, base: RecordFields & { versionNumber: number }, version: { snapshot: unknown }, answers: Array<{ inputs: Record<string, unknown>; personal?: string }>, start: number): Promise<NewDecisionRecord[]> {
  const compiled = compileAdviceSet((version.snapshot as VersionSnapshot).model)
  return insertRecords(db, answers.length, base, (i) => {
    const { inputs, personal } = answers[i]!
    const receivedAt = new Date(start + i * 1000)
    const { outcome, status, adviceNodeIds } = recordedOutcome(compiled, evaluate(compiled, inputs, { context: 'run', contentType: 'text', now: receivedAt }))
    return {
      id: decisionIdAt(receivedAt.getTime()), receivedAt, inputs: personal ? { ...inputs, [personal]: PERSONAL_PLACEHOLDER } : inputs,
      outcome, status, adviceNodeIds, hasErrors: outcome.errors.length > 0, ...(personal ? { personalHashes: ['hash'] } : {}),
    }
  })
}
