// Decision tables in and out of an advice set (issue 28, point 5): a CSV or XLSX upload read into a table, previewed
// (its rows, errors by cell, warnings about overlapping and unreachable rows) and, unless a dry run, added to the set's
// working draft as a new rule, in one transaction through the same inserts and audit rows as a rule made by hand
// (so the activity log and the search index see it the same way); and a rule whose tree has a table's shape
// written back as XLSX.
import type { Readable } from 'node:stream'
import { listNodes } from '../../db/queries/rule-nodes.ts'
import { nodeSupplements } from '../../db/queries/supplements.ts'
import type { EntityRow } from '../../db/queries/entities.ts'
import type { AdviceSetModel, EntityModel } from '../../engine/index.ts'
import type { Actor, Deps } from '../context.ts'
import { DomainError, ValidationError } from '../errors.ts'
import { FileTooLargeUploadError, MAX_UPLOAD_BYTES, type UploadPart } from '../files/uploads.ts'
import { requireText } from '../validate.ts'
import { dictionaryFor, treesOf } from './advice-set-model.ts'
import { kindOf } from './entities.ts'
import { analyseTable, type TableWarning } from './decision-table-analysis.ts'
import {
  HIT_POLICIES, readDecisionTable, tableGrid, tableOfTree, tableTree, type CellProblem, type ConditionColumn, type DecisionTable,
  type DictionaryEntry, type HitPolicy, type TableShape,
} from './decision-table.ts'
import { readTableFile, writeTableXlsx, XLSX_CONTENT_TYPE } from './decision-table-files.ts'
import { insertNodeTree } from './rule-nodes.ts'
import { insertPlacedRule, readableRule, writableSetFor } from './rules.ts'

/** The options of an import, from the multipart fields or the query (both may be used; a field given twice must agree). */
export interface TableImportOptions { into?: string; hitPolicy?: string; name?: string; dryRun?: string }

export interface TablePreviewColumn { cell: string; header: string; ref: 'variable' | 'formula'; name: string; kind: ConditionColumn['kind']; known: boolean }

/** What a preview (and an import) answers. */
export interface TablePreview {
  dryRun: boolean
  file: { name: string; format: 'csv' | 'xlsx' }
  hitPolicy: HitPolicy
  /** The rule's name (made or to be made). */
  name: string
  intoAdviceSetId: number
  columns: TablePreviewColumn[]
  rows: Array<{
    row: number
    conditions: Array<{ cell: string; column: string; source: string; items: Array<{ op: string; value: number | string | boolean }> }>
    headline: string
    text: string | null
    expression: string | null
  }>
  errors: CellProblem[]
  /** Errors beyond those listed. */
  moreErrors: number
  /** Rows that overlap or are never reached, and header names the dictionary lacks (`cell`, no rows). */
  warnings: Array<TableWarning & { cell?: string }>
  /** A real import: the rule made, its page and how many nodes it has. */
  created?: { ruleId: number; href: string; nodes: number }
}

export class NotATableError extends DomainError {
  constructor(reason: string) {
    super('NOT_A_TABLE', `This rule cannot be exported as a table. ${reason}`, 409)
  }
}

const FIELDS = ['into', 'hitPolicy', 'name', 'dryRun'] as const

async function readFile(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    size += (chunk as Buffer).length
    if (size > MAX_UPLOAD_BYTES) {
      stream.resume()
      throw new FileTooLargeUploadError()
    }
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

function parseFlag(raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false
  if (raw === 'true' || raw === '1') return true
  throw new ValidationError('dryRun', 'dryRun: true or false.')
}

function setIdOf(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') throw new ValidationError('into', 'into: name the advice set the rule is added to (its id).')
  const id = Number(raw)
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(id) || id < 1) throw new ValidationError('into', 'into: Invalid item id format.')
  return id
}

/** The rule's name when none is given: the file's name without its extension. */
function nameFromFile(filename: string): string {
  const base = filename.replace(/^.*[\\/]/, '').replace(/\.(csv|xlsx|txt)$/i, '').trim()
  return (base || 'Decision table').slice(0, 200)
}

type EntryLike = Pick<EntityModel, 'name' | 'kind' | 'options' | 'isClosedSet'> & { dataType?: string | null }

/** The set's dictionary by lower-case name, as the table reader takes it (from the model's entities or the rows'). */
export function dictionaryEntries(entities: readonly EntryLike[]): Map<string, DictionaryEntry> {
  return new Map(entities.map((e) => [e.name.toLowerCase(), {
    name: e.name, kind: e.kind, dataType: e.dataType ?? null, options: e.options ?? [], isClosedSet: e.isClosedSet ?? false,
  }]))
}

function rowEntries(rows: EntityRow[]): EntryLike[] {
  return rows.map((e) => ({ name: e.reservedName, kind: kindOf(e), dataType: e.dataType, options: e.validOptions, isClosedSet: e.isClosedSet }))
}

function previewOf(table: DecisionTable): Pick<TablePreview, 'columns' | 'rows'> {
  const header = (c: ConditionColumn) => (c.ref === 'variable' ? `{{${c.name}}}` : `[[${c.name}]]`)
  return {
    columns: table.columns.map((c) => ({ cell: c.cell, header: header(c), ref: c.ref, name: c.name, kind: c.kind, known: c.known })),
    rows: table.rows.map((r) => ({
      row: r.row, headline: r.headline, text: r.text, expression: r.expression,
      conditions: r.conditions.map((c) => ({ cell: c.cell, column: header(table.columns[c.column]!), source: c.source, items: c.items })),
    })),
  }
}

/**
 * POST /api/adviceset/import/table: reads the upload's parts (the file in `file`, options as fields), checks that the
 * actor may add a rule to the set `into`, reads and analyses the table and, unless `dryRun`, adds it as a new rule
 * last in the set. A table with errors is refused with a 400 whose `preview` lists them; nothing is written.
 */
export async function importDecisionTable(deps: Deps, actor: Actor, parts: AsyncIterable<UploadPart>, query: TableImportOptions): Promise<TablePreview> {
  const fields: TableImportOptions = {}
  let file: { name: string; bytes: Buffer } | null = null
  for await (const part of parts) {
    if (part.kind === 'field') {
      const key = FIELDS.find((f) => f === part.field)
      if (key) fields[key] = part.value
      continue
    }
    if (part.field !== 'file' || file) throw new ValidationError('file', 'Send one file, in the field "file".')
    file = { name: part.filename, bytes: await readFile(part.stream) }
  }
  const option = (key: typeof FIELDS[number]): string | undefined => {
    const [a, b] = [fields[key], query[key]]
    if (a !== undefined && b !== undefined && a !== b) throw new ValidationError(key, `${key}: given as a form field and in the query with different values.`)
    return a ?? b
  }
  const set = await writableSetFor(deps.db, actor, setIdOf(option('into')))
  if (!file) throw new ValidationError('file', 'file: choose a CSV or XLSX file with the table.')
  const rawPolicy = option('hitPolicy')
  if (rawPolicy !== undefined && rawPolicy !== '' && !(HIT_POLICIES as readonly string[]).includes(rawPolicy)) {
    throw new ValidationError('hitPolicy', `hitPolicy: ${HIT_POLICIES.join(' or ')}.`)
  }
  const rawName = option('name')
  const name = rawName === undefined || rawName.trim() === '' ? nameFromFile(file.name) : requireText('name', rawName, 'Name', 200)
  const dryRun = parseFlag(option('dryRun'))

  const sheet = await readTableFile(file.bytes, file.name)
  const hitPolicy = (rawPolicy || sheet.hitPolicy || 'first') as HitPolicy
  const dictionary = dictionaryEntries(rowEntries(await dictionaryFor(deps.db, set, actor)))
  const read = readDecisionTable(sheet.grid, dictionary)
  const clean = read.errors.length === 0 && read.moreErrors === 0
  const preview: TablePreview = {
    dryRun, file: { name: file.name, format: sheet.format }, hitPolicy, name, intoAdviceSetId: set.id,
    ...previewOf(read.table), errors: read.errors, moreErrors: read.moreErrors,
    warnings: [...read.notes.map((n) => ({ rows: [], cell: n.cell, message: n.message })), ...(clean ? analyseTable(read.table, hitPolicy) : [])],
  }
  if (dryRun) return preview
  if (!clean) {
    const count = read.errors.length + read.moreErrors
    const failure = new ValidationError('file', `file: the table has ${count} error${count === 1 ? '' : 's'}, so nothing was imported. ${read.errors[0]!.message}`,
      read.errors.map((e) => ({ field: e.cell, message: e.message })))
    failure.details = { ...failure.details, preview }
    throw failure
  }
  const created = await deps.db.transaction(async (tx) => {
    const rule = await insertPlacedRule(tx, actor, set, { name, onlyWhenCalled: false })
    const nodes = await insertNodeTree(tx, actor, { id: rule.id, set }, tableTree(read.table, hitPolicy))
    return { ruleId: rule.id, href: `/adviceset/${set.id}/rule/${rule.id}/show`, nodes: nodes.length }
  })
  return { ...preview, created }
}

/** A rule's tree read as a table (see decision-table.ts), with the dictionary of the set's model. */
export function ruleTableShape(model: AdviceSetModel, ruleId: number): TableShape {
  const rule = model.rules.find((r) => r.id === String(ruleId))
  return tableOfTree(rule?.nodes ?? [], dictionaryEntries(model.entities))
}

/** GET /api/rule/{id}/table.xlsx: the rule as an XLSX decision table, or 409 naming why its tree is not one. */
export async function ruleTableXlsx(deps: Deps, actor: Actor, ruleId: number): Promise<{ filename: string; contentType: string; bytes: Buffer }> {
  const rule = await readableRule(deps.db, actor, ruleId)
  const [rows, linked, dictionary] = await Promise.all([listNodes(deps.db, [rule.id]), nodeSupplements(deps.db, [rule.id]), dictionaryFor(deps.db, rule.set, actor)])
  const shape = tableOfTree(treesOf(rows, linked).get(rule.id) ?? [], dictionaryEntries(rowEntries(dictionary)))
  if (!shape.ok) throw new NotATableError(shape.reason)
  const bytes = await writeTableXlsx(tableGrid(shape.table), shape.hitPolicy)
  return { filename: `${rule.name.replace(/[\\/:*?"<>|]+/g, ' ').trim() || 'rule'}.xlsx`, contentType: XLSX_CONTENT_TYPE, bytes }
}
