// Decision records into the embedded database by COPY: PGlite reads the rows as CSV from a blob, made here from the
// encoded records (decisions.ts), which skips the JSON parameter's parsing and the per-row expressions of the insert …
// select: 30 % less of PGlite's time per record (batches of 100 in alternating rounds: median 63 µs against 90, best
// 41 against 57). On the database's worker thread (npm start) the CSV is made there, off the thread serving HTTP.
// PostgreSQL keeps the insert (writeDecisionRecords), as does a transaction on PGlite, which has no client of its own.
import type { PGlite } from '@electric-sql/pglite'

/** The columns a new record is written with, in the order both writers give them (this COPY and the insert). */
export const DECISION_RECORD_COLUMNS = 'id, received_at, owner_id, advice_set_id, version_id, version_number, api_key_id, environment, endpoint, '
  + 'content_type, inputs, personal_hashes, status, advice_node_ids, has_errors, outcome, engine_micros'

/** A record as encodeDecisionRecord (decisions.ts) writes it: its columns in DECISION_RECORD_COLUMNS' order. */
type EncodedColumns = [
  id: string, receivedAt: string, ownerId: string, adviceSetId: number, versionId: number, versionNumber: number, apiKeyId: number,
  environment: string, endpoint: string, contentType: string, inputs: string, personalHashes: string[], status: string,
  adviceNodeIds: string[], hasErrors: boolean, outcome: string, engineMicros: number,
]

/** A CSV field: quoted, its quotes doubled (so commas, quotes and line breaks inside stay in it). */
function field(text: string): string {
  return `"${text.replace(/"/g, '""')}"`
}

/** A text[] literal: each element quoted, its backslashes and quotes escaped. */
function textArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`
}

/** Encoded records (a JSON array of them) as CSV rows. */
export function decisionRecordsCsv(encoded: string): string {
  let csv = ''
  for (const r of JSON.parse(encoded) as EncodedColumns[]) {
    csv += [
      r[0], r[1], field(r[2]), r[3], r[4], r[5], r[6], field(r[7]), field(r[8]), field(r[9]), field(r[10]),
      field(textArray(r[11])), field(r[12]), field(textArray(r[13])), r[14] ? 't' : 'f', field(r[15]), r[16],
    ].join(',') + '\n'
  }
  return csv
}

/** Encoded records, a JSON array of them (writeDecisionRecords), in one COPY. */
export async function copyDecisionRecords(client: PGlite, encoded: string): Promise<void> {
  await client.query(`copy decision_records (${DECISION_RECORD_COLUMNS}) from '/dev/blob' with (format csv)`, [], { blob: new Blob([decisionRecordsCsv(encoded)]) })
}
