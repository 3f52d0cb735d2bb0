// Export of a set's decision records (issue 26) through the job queue, as CSV or JSON, with the list's filters. The
// plan counts what the filters select and fixes the end of the range at the moment it was asked for, so records that
// arrive while the job runs do not change it. The job reads keyset pages of 1,000 and writes each row as it comes.
// Readable by whoever may read the records: the set owner's team, every role (viewers read records, so they may take
// them away too), and provider admins; other owners get a 404. Personal hashes never leave the database.
import type { Readable } from 'node:stream'
import { countDecisionRecords, listDecisionRecords, type DecisionFilter, type DecisionRecordRow } from '../../db/queries/decisions.ts'
import { teamSet } from '../publishing/versions.ts'
import { audit } from '../audit/audit.ts'
import type { Actor, Deps } from '../context.ts'
import { slugify } from '../library/tags.ts'
import { CONTENT_TYPES, csvStream, jsonStream, type ExportRow } from '../operations/export.ts'
import { canonicalJson } from './canonical.ts'
import { parseDecisionQuery, type DecisionQuery } from './filters.ts'
import { ValidationError } from '../errors.ts'

export const DECISION_EXPORT_JOB = 'decisions.export'
export const DECISION_EXPORT_FORMATS = ['csv', 'json'] as const
export type DecisionExportFormat = (typeof DECISION_EXPORT_FORMATS)[number]
const PAGE = 1_000

/** The subject of a set's decision exports: the page that starts them lists their progress and downloads. */
export function decisionExportSubject(adviceSetId: number): string {
  return `adviceset:${adviceSetId}:decisions`
}

/** The job's payload (JSON): the filter with its moments as ISO text. */
export interface DecisionExportPlan {
  adviceSetId: number; ownerId: string; setName: string; format: DecisionExportFormat; rows: number; fileName: string
  filter: Omit<DecisionFilter, 'adviceSetId' | 'before' | 'from' | 'to'> & { from?: string; to: string }
}

const CSV_COLUMNS = ['id', 'receivedAt', 'apiKeyId', 'environment', 'endpoint', 'contentType', 'versionNumber', 'status', 'advice', 'errors', 'engineMicros', 'inputs']
  .map((key) => ({ key, header: key }))

/** The list's filter fields, as a form or an API body sends them. */
const FILTER_FIELDS = ['from', 'to', 'key', 'version', 'advice', 'status', 'errors'] as const
export type DecisionFilterInput = Partial<Record<(typeof FILTER_FIELDS)[number], unknown>>

/** The filters an export was asked with, read as the list reads its query (one parser: services/decisions/filters.ts). */
function filterQuery(input: DecisionFilterInput): DecisionQuery {
  const query: DecisionQuery = {}
  for (const name of FILTER_FIELDS) {
    const value = input[name]
    if (value === undefined || value === '') continue
    if (typeof value !== 'string') throw new ValidationError(name, `${name} must be text.`)
    query[name] = value
  }
  return query
}

export async function planDecisionExport(deps: Deps, actor: Actor, adviceSetId: number, format: DecisionExportFormat, input: DecisionFilterInput, now = new Date()): Promise<DecisionExportPlan> {
  const set = await teamSet(deps.db, actor, adviceSetId)
  const { from, to, before: _cursor, ...rest } = parseDecisionQuery(filterQuery(input))
  const until = to && to < now ? to : now
  const rows = await countDecisionRecords(deps.db, { ...rest, adviceSetId, from, to: until })
  const name = set.nameAlt || set.name
  return {
    adviceSetId, ownerId: set.ownerId, setName: name, format, rows,
    fileName: `${slugify(name) || 'advice-set'}-decisions-${now.toISOString().slice(0, 10)}.${format}`,
    filter: { ...rest, ...(from ? { from: from.toISOString() } : {}), to: until.toISOString() },
  }
}

function queryFilter(plan: DecisionExportPlan): DecisionFilter {
  const { from, to, ...rest } = plan.filter
  return { ...rest, adviceSetId: plan.adviceSetId, ...(from ? { from: new Date(from) } : {}), to: new Date(to) }
}

/** The plan's records, newest first, read a keyset page at a time (never all at once). */
async function* planRecords(deps: Deps, plan: DecisionExportPlan): AsyncGenerator<DecisionRecordRow> {
  const filter = queryFilter(plan)
  for (;;) {
    const page = await listDecisionRecords(deps.db, filter, PAGE)
    yield* page
    if (page.length < PAGE) return
    const last = page.at(-1)!
    filter.before = { receivedAt: last.receivedAt, id: last.id }
  }
}

/** A record as exported: what the partner was told and from what, never the personal hashes. */
function exportedRecord(r: DecisionRecordRow) {
  return {
    id: r.id, receivedAt: r.receivedAt.toISOString(), apiKeyId: r.apiKeyId, environment: r.environment, endpoint: r.endpoint,
    contentType: r.contentType, versionNumber: r.versionNumber, status: r.status, advice: r.adviceNodeIds,
    errors: r.outcome.errors.length, engineMicros: r.engineMicros, inputs: r.inputs,
  }
}

/** The export as bytes in the plan's format; `onRecord` sees the count written so far (job progress). */
export function decisionExportStream(deps: Deps, plan: DecisionExportPlan, onRecord: (n: number) => Promise<void>): Readable {
  let written = 0
  const records = (async function* counted() {
    for await (const record of planRecords(deps, plan)) {
      yield exportedRecord(record)
      await onRecord(++written)
    }
  })()
  if (plan.format === 'json') return jsonStream(records)
  return csvStream((async function* rows(): AsyncGenerator<ExportRow> {
    for await (const r of records) yield { ...r, advice: r.advice.join(' '), inputs: canonicalJson(r.inputs) }
  })(), CSV_COLUMNS)
}

/** Starts the export as a job of the set's owner, audited with what it selected. */
export async function startDecisionExportJob(deps: Deps, actor: Actor, plan: DecisionExportPlan) {
  return deps.db.transaction(async (tx) => {
    const job = await deps.jobs.enqueue(tx, {
      kind: DECISION_EXPORT_JOB, ownerId: plan.ownerId, userId: actor.userId, subject: decisionExportSubject(plan.adviceSetId),
      title: `Export of decision records of “${plan.setName}” (${plan.format.toUpperCase()})`, payload: plan,
    })
    await audit(tx, actor, {
      ownerId: plan.ownerId, action: 'create', entityType: 'export', entityId: `decisions.${plan.format}`,
      after: { adviceSetId: plan.adviceSetId, rows: plan.rows, format: plan.format, filter: plan.filter, jobId: job.id },
    })
    return job
  })
}

function recordsLine(n: number, total: number): string {
  return `${n.toLocaleString('en')} of ${total.toLocaleString('en')} records`
}

export function registerDecisionExportJob(deps: Deps): void {
  deps.jobs.register<DecisionExportPlan>(DECISION_EXPORT_JOB, async (plan, { progress, saveFile }) => {
    const total = plan.rows
    let done = 0
    const stream = decisionExportStream(deps, plan, (n) => {
      done = n
      return progress(total === 0 ? 99 : Math.min(99, (n / total) * 99), recordsLine(n, Math.max(n, total)))
    })
    const { downloadUrl } = await saveFile({ name: plan.fileName, contentType: CONTENT_TYPES[plan.format], content: stream })
    // Records erased while the job ran are not in the file: the line says how many it holds.
    await progress(100, recordsLine(done, Math.max(done, total)))
    return { downloadUrl, fileName: plan.fileName, rows: done }
  }, { attempts: 3 })
}
