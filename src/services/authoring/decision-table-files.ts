// Decision tables as files (issue 28, point 5): CSV (csv-parse) and XLSX (exceljs) read into a grid of cells, and a
// grid written as XLSX. Uploads are hostile: the bytes decide the format (an .xlsx must be a ZIP holding a workbook,
// a CSV must be UTF-8 text), and before exceljs inflates a workbook every entry is inflated here with a cap on its
// output (zlib's maxOutputLength), so a ZIP bomb or an entry that lies about its size is refused early.
import { inflateRawSync } from 'node:zlib'
import { ValidationError } from '../errors.ts'
import { MAX_TABLE_COLUMNS, MAX_TABLE_ROWS, type Grid, type GridCell, type HitPolicy } from './decision-table.ts'

/** Inflated size of all a workbook's entries together. */
export const MAX_XLSX_INFLATED_BYTES = 50 * 1024 * 1024
/** Entries a workbook's ZIP may hold. */
export const MAX_XLSX_ENTRIES = 1000
/** Rows of the sheet read at most (blank rows included); the table's own cap (MAX_TABLE_ROWS) counts rows with cells. */
const MAX_GRID_ROWS = MAX_TABLE_ROWS * 5 + 1

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

function refused(message: string): ValidationError {
  return new ValidationError('file', `file: ${message}`)
}

/** What the sheet says besides its cells: the hit policy, when its name is "Hit policy first" or "… collect". */
export interface SheetFile { grid: Grid; format: 'csv' | 'xlsx'; hitPolicy: HitPolicy | null }

export async function readTableFile(bytes: Buffer, filename: string): Promise<SheetFile> {
  if (bytes.length === 0) throw refused(`“${filename}” is empty.`)
  if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return readXlsx(bytes, filename)
  if (bytes.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0]))) throw refused(`“${filename}” is an old Excel workbook (.xls): save it as .xlsx or CSV.`)
  if (/\.xlsx$/i.test(filename)) throw refused(`“${filename}” is not an XLSX workbook (an .xlsx file is a ZIP archive).`)
  await loadCsvParser()
  return { grid: readCsv(bytes, filename), format: 'csv', hitPolicy: null }
}

// CSV ------------------------------------------------------------------------------------------------------------------

function readCsv(bytes: Buffer, filename: string): Grid {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw refused(`“${filename}” is neither an XLSX workbook nor UTF-8 text (CSV).`)
  }
  if (text.includes('\u0000')) throw refused(`“${filename}” is binary, not a CSV text file.`)
  return parseCsvText(text.replace(/^\uFEFF/, ''))
}

/** The delimiter of the header line: comma, semicolon (spreadsheets in many locales) or tab, whichever it has most of. */
function delimiterOf(text: string): string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/))
  const counts = [',', ';', '\t'].map((d) => [d, firstLine.split(d).length] as const)
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0]
}

function parseCsvText(text: string): Grid {
  return csvParse!(text, {
    delimiter: delimiterOf(text), relax_column_count: true, relax_quotes: false, skip_empty_lines: false,
    to: MAX_GRID_ROWS, max_record_size: 64 * 1024,
  })
}

let csvParse: ((text: string, options: Record<string, unknown>) => string[][]) | null = null

/** Loads csv-parse once (when a CSV comes, not with every process that imports this module); CSV errors (a stray quote) become the file's 400, naming the line. */
async function loadCsvParser(): Promise<void> {
  if (csvParse) return
  const { parse } = await import('csv-parse/sync')
  csvParse = (text, options) => {
    try {
      return parse(text, options) as string[][]
    } catch (error) {
      const line = (error as { lines?: number }).lines
      throw refused(`the CSV cannot be read${line ? ` at line ${line}` : ''}: ${(error as Error).message.replace(/^Invalid [^:]*: /, '')}`)
    }
  }
}

// XLSX ---------------------------------------------------------------------------------------------------------------

/**
 * Inflates every entry of the ZIP (from its central directory) with the output capped, refusing archives that are
 * not what a workbook is: ZIP64, encrypted or unknown compression, too many entries, more than the cap inflated, an
 * entry whose data inflates to another size than it declares, and no xl/workbook.xml.
 */
export function checkXlsxZip(bytes: Buffer, filename: string): void {
  const bad = (why: string) => refused(`“${filename}” is not a workbook that can be read: ${why}.`)
  const eocdMin = Math.max(0, bytes.length - 22 - 0xffff)
  let eocd = -1
  for (let i = bytes.length - 22; i >= eocdMin; i--) {
    if (bytes.readUInt32LE(i) === 0x06054b50) { eocd = i; break }
  }
  if (eocd < 0) throw bad('the ZIP archive has no end record (cut off?)')
  const entries = bytes.readUInt16LE(eocd + 10)
  const cdSize = bytes.readUInt32LE(eocd + 12)
  const cdOffset = bytes.readUInt32LE(eocd + 16)
  if (entries === 0xffff || cdOffset === 0xffffffff) throw bad('ZIP64 archives are not taken')
  if (entries > MAX_XLSX_ENTRIES) throw bad(`more than ${MAX_XLSX_ENTRIES} entries`)
  if (cdOffset + cdSize > eocd) throw bad('its directory lies outside the archive')
  let at = cdOffset
  let inflated = 0
  let workbook = false
  for (let n = 0; n < entries; n++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50) throw bad('its directory is damaged')
    const flags = bytes.readUInt16LE(at + 8)
    const method = bytes.readUInt16LE(at + 10)
    const compressed = bytes.readUInt32LE(at + 20)
    const size = bytes.readUInt32LE(at + 24)
    const nameLength = bytes.readUInt16LE(at + 28)
    const extraLength = bytes.readUInt16LE(at + 30)
    const commentLength = bytes.readUInt16LE(at + 32)
    const local = bytes.readUInt32LE(at + 42)
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength)
    at += 46 + nameLength + extraLength + commentLength
    if (flags & 1) throw bad('it is encrypted')
    if (name === 'xl/workbook.xml') workbook = true
    inflated += size
    if (inflated > MAX_XLSX_INFLATED_BYTES) throw bad(`it holds more than ${MAX_XLSX_INFLATED_BYTES / 1024 / 1024} MB uncompressed`)
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== 0x04034b50) throw bad(`its entry ${name} is damaged`)
    const dataStart = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28)
    if (dataStart + compressed > bytes.length) throw bad(`its entry ${name} is cut off`)
    const data = bytes.subarray(dataStart, dataStart + compressed)
    let actual: number
    if (method === 0) actual = data.length
    else if (method === 8) {
      try {
        actual = inflateRawSync(data, { maxOutputLength: Math.max(1, size) }).length
      } catch {
        throw bad(`its entry ${name} inflates to more than it declares, or is damaged`)
      }
    } else throw bad(`its entry ${name} uses an unknown compression`)
    if (actual !== size) throw bad(`its entry ${name} is not the size it declares`)
  }
  if (!workbook) throw bad('the ZIP archive holds no xl/workbook.xml')
}

/** A cell's value as text (what it shows), or a number. */
function xlsxCellValue(value: unknown): GridCell {
  if (value === null || value === undefined) return ''
  if (typeof value === 'number') return value
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (value instanceof Date) return value.toISOString().slice(0, 10)
  if (typeof value === 'object') {
    const v = value as { richText?: Array<{ text: string }>; text?: unknown; result?: unknown; error?: string }
    if (Array.isArray(v.richText)) return v.richText.map((r) => r.text).join('')
    if ('result' in v) return xlsxCellValue(v.result)
    if (typeof v.text === 'string') return v.text
    if (typeof v.error === 'string') return v.error
  }
  return ''
}

async function readXlsx(bytes: Buffer, filename: string): Promise<SheetFile> {
  checkXlsxZip(bytes, filename)
  const { default: ExcelJS } = await import('exceljs')
  const workbook = new ExcelJS.Workbook()
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer)
  } catch {
    throw refused(`“${filename}” is not a workbook that can be read.`)
  }
  const sheet = workbook.worksheets[0]
  if (!sheet) throw refused(`“${filename}” has no worksheet.`)
  const grid: Grid = []
  let problem: ValidationError | null = null
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (problem) return
    if (rowNumber > MAX_GRID_ROWS) {
      problem = refused(`the sheet has cells in row ${rowNumber}: a table has at most ${MAX_TABLE_ROWS} rows.`)
      return
    }
    const cells: GridCell[] = []
    row.eachCell({ includeEmpty: false }, (cell, column) => {
      if (problem) return
      const value = xlsxCellValue(cell.value)
      if (value === '') return
      if (column > MAX_TABLE_COLUMNS) {
        problem = refused(`the sheet has a cell in ${cell.address}: a table has at most ${MAX_TABLE_COLUMNS} columns.`)
        return
      }
      cells[column - 1] = value
    })
    grid[rowNumber - 1] = Array.from(cells, (c) => c ?? '')
  })
  if (problem) throw problem
  const policy = /^hit policy (first|collect)$/i.exec(sheet.name.trim())
  return { grid: Array.from(grid, (row) => row ?? []), format: 'xlsx', hitPolicy: policy ? (policy[1]!.toLowerCase() as HitPolicy) : null }
}

/** The grid as an XLSX workbook of one sheet named after the hit policy (which an import of it reads back). */
export async function writeTableXlsx(grid: Grid, hitPolicy: HitPolicy): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs')
  const workbook = new ExcelJS.Workbook()
  workbook.creator = 'Advice Studio'
  const sheet = workbook.addWorksheet(`Hit policy ${hitPolicy}`, { views: [{ state: 'frozen', ySplit: 1 }] })
  for (const row of grid) sheet.addRow(row)
  sheet.getRow(1).font = { bold: true }
  sheet.columns.forEach((column, i) => {
    column.width = Math.min(60, Math.max(10, ...grid.map((row) => String(row[i] ?? '').length + 2)))
  })
  return Buffer.from(await workbook.xlsx.writeBuffer())
}
