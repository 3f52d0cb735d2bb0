// An uploaded advice-set file taken to its end (issue 28): read safely (portable-file.ts), then planned or imported
// (portable-import.ts). The plan's problems are placed in the file's text: each gets the line and column where the
// value its JSON pointer names begins.
import type { Actor, Deps } from '../context.ts'
import { locate, readPortableUpload } from './portable-file.ts'
import { MAX_ZIP_BYTES } from './portable-zip.ts'
import { dryRunImport, importAdviceSet, ImportRefusedError, type ImportIssue, type ImportPlan, type ImportResult } from './portable-import.ts'

/** The largest upload: the ZIP form's cap (a JSON document has its own, smaller one: portable-json.ts). */
export const MAX_IMPORT_BYTES = MAX_ZIP_BYTES

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
