// Export (SPEC §2 /admin/export, §7 export/questions/data[.{resFormat}], export/ai-user-requests/data.{resFormat}):
// every question across an owner's sets (its variable, type, options and where it is used), every request for
// advice, or the whole activity log (each entry as its sentence, and who acted as the pages say it — "Ada Admin as
// Aaron A. Author" under impersonation: auditors read the log outside the app), as CSV (csv-stringify), JSON or XLSX (exceljs' streaming writer). Rows are read in pages and written as
// they come, so a response never holds the whole export; above EXPORT_INLINE_LIMIT rows it runs as a job whose
// file is downloaded when done. Admins export their own owner; provider admins any owner.
import { PassThrough, pipeline, Readable } from 'node:stream'
import { stringify } from 'csv-stringify'
import { countActivity } from '../../db/queries/activity.ts'
import { adviceRequestPage, countAdviceRequests, countQuestions, questionPage } from '../../db/queries/export.ts'
import { findOwner } from '../../db/queries/users.ts'
import { activityExportPage } from '../audit/activity.ts'
import { audit } from '../audit/audit.ts'
import { isProviderAdmin, type Actor, type Deps } from '../context.ts'
import { ForbiddenError, ValidationError } from '../errors.ts'
import { slugify } from '../library/tags.ts'

export const EXPORT_KINDS = ['questions', 'ai-user-requests', 'activity'] as const
export type ExportKind = (typeof EXPORT_KINDS)[number]
export const EXPORT_FORMATS = ['csv', 'json', 'xlsx'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]
/** Larger exports run as a job (a download when done) rather than in the request. */
export const EXPORT_INLINE_LIMIT = 5_000
const PAGE = 500
export const EXPORT_JOB = 'export.data'

// Moments stay Dates up to the writer: XLSX makes them date cells, CSV and JSON write them in ISO 8601.
export type ExportRow = Record<string, string | number | boolean | Date>
interface Column { key: string; header: string; width: number; /** Excel's number format, for date columns. */ numFmt?: string }

const COLUMNS: Record<ExportKind, Column[]> = {
  'questions': [
    { key: 'adviceSetId', header: 'Advice set id', width: 12 }, { key: 'adviceSet', header: 'Advice set', width: 30 },
    { key: 'ruleId', header: 'Rule id', width: 10 }, { key: 'rule', header: 'Rule', width: 30 },
    { key: 'nodeId', header: 'Node id', width: 10 }, { key: 'question', header: 'Question', width: 50 },
    { key: 'variable', header: 'Variable', width: 24 }, { key: 'type', header: 'Type', width: 12 },
    { key: 'options', header: 'Options', width: 40 }, { key: 'closedSet', header: 'Only these options', width: 12 },
    { key: 'usedIn', header: 'Where used', width: 50 },
  ],
  'ai-user-requests': [
    { key: 'id', header: 'Id', width: 10 }, { key: 'adviceSetId', header: 'Advice set id', width: 12 },
    { key: 'adviceSet', header: 'Advice set', width: 30 }, { key: 'text', header: 'Request', width: 60 },
    { key: 'status', header: 'Status', width: 12 }, { key: 'answeredBy', header: 'Answered by rule', width: 30 },
    { key: 'source', header: 'Source', width: 10 }, { key: 'createdAt', header: 'Received', width: 24, numFmt: 'yyyy-mm-dd hh:mm:ss' },
  ],
  'activity': [
    { key: 'id', header: 'Id', width: 10 }, { key: 'createdAt', header: 'When (UTC)', width: 24, numFmt: 'yyyy-mm-dd hh:mm:ss' },
    { key: 'by', header: 'By', width: 36 }, { key: 'impersonator', header: 'Impersonated by', width: 24 },
    { key: 'entry', header: 'Entry', width: 80 }, { key: 'action', header: 'Action', width: 10 },
    { key: 'entityType', header: 'Kind', width: 16 }, { key: 'entityId', header: 'Item id', width: 12 },
    { key: 'source', header: 'Source', width: 10 },
  ],
}

/** What each kind is called on the export page, in job titles and as the workbook's sheet. */
export const EXPORT_TITLES: Record<ExportKind, string> = { 'questions': 'Questions', 'ai-user-requests': 'Requests for advice', 'activity': 'Activity' }

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
}

export interface ExportPlan {
  kind: ExportKind; format: ExportFormat; ownerId: string; ownerName: string; rows: number; fileName: string
  /** Who exports: the activity export names things as this person may see them. */
  actor: Actor
}

function countRows(deps: Deps, kind: ExportKind, ownerId: string, upTo?: number): Promise<number> {
  if (kind === 'questions') return countQuestions(deps.db, ownerId, upTo)
  if (kind === 'activity') return countActivity(deps.db, ownerId, upTo)
  return countAdviceRequests(deps.db, ownerId, upTo)
}

/** Who may export what: admins their owner's data, provider admins any owner's (`ownerId`). */
/**
 * What an export would be. `opts.upToInlineLimit` (the export page) counts no further than one row past the inline
 * limit, which is all the page needs to offer a download or a job: a big tenant's 2,000,000 activity rows were
 * counted on every view (160 ms). The exports themselves count exactly.
 */
export async function planExport(deps: Deps, actor: Actor, kind: ExportKind, format: ExportFormat, requestedOwnerId?: string, opts: { upToInlineLimit?: boolean } = {}): Promise<ExportPlan> {
  if (actor.role !== 'admin') throw new ForbiddenError('Only admins can export: ask an admin of your team.')
  let ownerId = actor.ownerId
  if (requestedOwnerId && requestedOwnerId !== actor.ownerId) {
    if (!isProviderAdmin(actor)) throw new ForbiddenError('You can only export your own team’s data.')
    ownerId = requestedOwnerId
  }
  const owner = await findOwner(deps.db, ownerId)
  if (!owner) throw new ValidationError('ownerId', 'Owner does not exist.')
  const rows = await countRows(deps, kind, ownerId, opts.upToInlineLimit ? EXPORT_INLINE_LIMIT + 1 : undefined)
  return { kind, format, ownerId, ownerName: owner.name, rows, fileName: `${kind}-${slugify(owner.name) || 'team'}-${new Date().toISOString().slice(0, 10)}.${format}`, actor }
}

/** Rows one page at a time. */
async function* exportRows(deps: Deps, plan: ExportPlan): AsyncGenerator<ExportRow> {
  const { kind, ownerId } = plan
  let after = 0
  for (;;) {
    if (kind === 'activity') {
      const page = await activityExportPage(deps, plan.actor, ownerId, after, PAGE)
      for (const a of page) {
        yield {
          id: a.id, createdAt: a.createdAt, by: a.byline, impersonator: a.impersonator?.name ?? '', entry: a.summary,
          action: a.action, entityType: a.entityType, entityId: a.entityId, source: a.source,
        }
      }
      if (page.length < PAGE) return
      after = page.at(-1)!.id
    } else if (kind === 'questions') {
      const page = await questionPage(deps.db, ownerId, after, PAGE)
      for (const q of page) {
        yield {
          adviceSetId: q.adviceSetId, adviceSet: q.adviceSetName, ruleId: q.ruleId, rule: q.ruleName, nodeId: q.nodeId,
          question: q.question ?? '', variable: q.variable ?? '', type: q.dataType ?? '', options: (q.options ?? []).join('; '),
          closedSet: q.closedSet ?? false,
          usedIn: `${deps.config.baseUrl}/adviceset/${q.adviceSetId}/rule/${q.ruleId}/part/${q.nodeId}`,
        }
      }
      if (page.length < PAGE) return
      after = page.at(-1)!.nodeId
    } else {
      const page = await adviceRequestPage(deps.db, ownerId, after, PAGE)
      for (const r of page) {
        yield {
          id: r.id, adviceSetId: r.adviceSetId, adviceSet: r.adviceSetName, text: r.text, status: r.status,
          answeredBy: r.ruleName ?? '', source: r.source, createdAt: r.createdAt,
        }
      }
      if (page.length < PAGE) return
      after = page.at(-1)!.id
    }
  }
}

/** Rows as CSV with a header line of the columns' headers; moments in ISO 8601, booleans as yes/no. */
export function csvStream(rows: AsyncIterable<ExportRow>, columns: Array<{ key: string; header: string }>): Readable {
  // The BOM tells spreadsheet programs the file is UTF-8 (without it they read "Ünïcödé" in the local code page).
  const csv = stringify({
    bom: true, header: true, columns: columns.map((c) => ({ key: c.key, header: c.header })),
    cast: { boolean: (v) => (v ? 'yes' : 'no'), date: (v) => v.toISOString() },
  })
  // pipeline, not pipe: a failure reading the rows (the database closing under a job) must fail the CSV stream too,
  // where pipe left it open for ever and the source's error unhandled. The error reaches whoever reads `csv`.
  pipeline(Readable.from(rows), csv, () => {})
  return csv
}

/** Rows as one JSON array, an element a line, written as they come. */
export function jsonStream(rows: AsyncIterable<unknown>): Readable {
  return Readable.from((async function* json() {
    yield '['
    let first = true
    for await (const row of rows) {
      yield (first ? '\n' : ',\n') + JSON.stringify(row)
      first = false
    }
    yield '\n]\n'
  })())
}

/** The export as a byte stream in the format asked for. `onRow` sees each row as it is written (job progress). */
export function exportStream(deps: Deps, plan: ExportPlan, onRow: (n: number) => Promise<void> = async () => {}): Readable {
  const columns = COLUMNS[plan.kind]
  let written = 0
  const rows = (async function* counted() {
    for await (const row of exportRows(deps, plan)) {
      yield row
      await onRow(++written)
    }
  })()
  if (plan.format === 'csv') return csvStream(rows, columns)
  if (plan.format === 'json') return jsonStream(rows)
  const out = new PassThrough()
  void (async () => {
    // exceljs takes ~0.6 s to load: only an XLSX export pays it, not every process that imports this module.
    const { default: ExcelJS } = await import('exceljs')
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true })
    const sheet = workbook.addWorksheet(EXPORT_TITLES[plan.kind])
    sheet.columns = columns.map((c) => ({ key: c.key, header: c.header, width: c.width, ...(c.numFmt ? { style: { numFmt: c.numFmt } } : {}) }))
    sheet.getRow(1).font = { bold: true }
    for await (const row of rows) sheet.addRow(row).commit()
    sheet.commit()
    await workbook.commit()
  })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))))
  return out
}

export async function auditExport(deps: Deps, actor: Actor, plan: ExportPlan): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await audit(tx, actor, { ownerId: plan.ownerId, action: 'create', entityType: 'export', entityId: `${plan.kind}.${plan.format}`, after: { rows: plan.rows, format: plan.format } })
  })
}

/** Starts a large export as a job; the job's result links its file. */
export async function startExportJob(deps: Deps, actor: Actor, plan: ExportPlan) {
  return deps.db.transaction(async (tx) => {
    const job = await deps.jobs.enqueue(tx, {
      kind: EXPORT_JOB, ownerId: plan.ownerId, userId: actor.userId, subject: EXPORT_JOB_SUBJECT,
      title: `Export of ${EXPORT_TITLES[plan.kind].toLowerCase()} (${plan.format.toUpperCase()}, ${plan.ownerName})`,
      payload: plan,
    })
    await audit(tx, actor, { ownerId: plan.ownerId, action: 'create', entityType: 'export', entityId: `${plan.kind}.${plan.format}`, after: { rows: plan.rows, format: plan.format, jobId: job.id } })
    return job
  })
}

/** Jobs started from the export page. */
export const EXPORT_JOB_SUBJECT = 'export'

export function registerExportJob(deps: Deps): void {
  deps.jobs.register<ExportPlan>(EXPORT_JOB, async (plan, { progress, saveFile }) => {
    // The file says what was written: rows added since the start's count (its own activity entry, for one) are in it.
    let written = 0
    const stream = exportStream(deps, plan, (n) => {
      written = n
      return progress(plan.rows === 0 ? 99 : Math.min(99, (n / plan.rows) * 99), `${n.toLocaleString('en')} of ${Math.max(n, plan.rows).toLocaleString('en')} rows`)
    })
    const { downloadUrl } = await saveFile({ name: plan.fileName, contentType: CONTENT_TYPES[plan.format], content: stream })
    await progress(100, `${written.toLocaleString('en')} rows`)
    return { downloadUrl, fileName: plan.fileName, rows: written }
  }, { attempts: 3 })
}
