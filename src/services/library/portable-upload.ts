// An uploaded advice-set file taken to its end (issue 28): read safely (portable-file.ts), then planned or imported
// (portable-import.ts). The plan's problems are placed in the file's text: each gets the line and column where the
// value its JSON pointer names begins.
import { listAdviceSetRows } from '../../db/queries/advice-sets.ts'
import { canCreate, canWriteOwned, setVisibility } from '../accounts/visibility.ts'
import type { Actor, Deps } from '../context.ts'
import { ForbiddenError } from '../errors.ts'
import { MAX_UPLOAD_BYTES } from '../files/uploads.ts'
import { locate, readPortableUpload } from './portable-file.ts'
import { MAX_ZIP_BYTES } from './portable-zip.ts'
import { dryRunImport, importAdviceSet, ImportRefusedError, type ImportIssue, type ImportPlan, type ImportResult } from './portable-import.ts'

/** The largest upload: the ZIP form's cap (a JSON document has its own, smaller one: portable-json.ts). */
export const MAX_IMPORT_BYTES = MAX_ZIP_BYTES

/** How many of the team's sets the page's "into" list offers (by name). */
const MAX_TARGET_SETS = 1000

export interface UploadedFile { filename: string; bytes: Buffer }

export type ImportOutcome = { kind: 'planned'; plan: ImportPlan } | { kind: 'imported'; result: ImportResult }

function placed(text: string, issues: ImportIssue[]): ImportIssue[] {
  return issues.map((issue) => {
    const at = locate(text, issue.pointer === '/' ? '' : issue.pointer)
    return at ? { ...issue, line: at.line, column: at.column } : issue
  })
}

function placedPlan(text: string, plan: ImportPlan): ImportPlan {
  return { ...plan, errors: placed(text, plan.errors), warnings: placed(text, plan.warnings) }
}

export async function importUploadedFile(deps: Deps, actor: Actor, file: UploadedFile, opts: { into?: number; dryRun: boolean }): Promise<ImportOutcome> {
  const upload = await readPortableUpload(file.bytes, file.filename)
  if (opts.dryRun) return { kind: 'planned', plan: placedPlan(upload.text, await dryRunImport(deps, actor, upload.document, { into: opts.into, files: upload.files })) }
  try {
    const result = await importAdviceSet(deps, actor, upload.document, { into: opts.into, files: upload.files })
    return { kind: 'imported', result: { ...result, plan: placedPlan(upload.text, result.plan) } }
  } catch (error) {
    if (error instanceof ImportRefusedError) throw new ImportRefusedError(placedPlan(upload.text, error.plan))
    throw error
  }
}

/** What the import page offers: the sets of the person's team it may import into (by name), and the caps. */
export async function importPageData(deps: Deps, actor: Actor, into: number | undefined) {
  if (!canCreate(actor)) throw new ForbiddenError('Viewers cannot import advice sets. Ask an admin of your team to make you an author.')
  const rows = await listAdviceSetRows(deps.db, { visibility: setVisibility(actor), ownerId: actor.ownerId, sort: 'name', offset: 0, limit: MAX_TARGET_SETS })
  const sets = rows.filter((row) => canWriteOwned(actor, row.ownerId)).map((row) => ({ id: row.id, name: row.name }))
  return { sets, into: into !== undefined && sets.some((s) => s.id === into) ? into : null, maxSetBytes: MAX_IMPORT_BYTES, maxTableBytes: MAX_UPLOAD_BYTES }
}
