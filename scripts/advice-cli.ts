// The command-line tool of issue 28 ("Promotion between instances"): export an advice set from a running instance,
// import a file or directory into one, and diff two documents (files, directories or live sets). Run as
// `npm run advice -- <command> …` or `npx advice-studio <command> …` (bin/advice-studio.js). It is a client: it
// talks HTTP (fetch) to the one instance the user names (`--url` or ADVICE_URL), with a personal access token
// (`--token` or ADVICE_TOKEN), follows no redirect, and reuses the format's pure modules (src/services/library).
//
// Exit codes: export and import 0 when done, 1 when refused or failed (an import also 1 when a scenario fails or
// errors after it); diff 0 when equal, 1 when different, 2 on error (as diff(1)); a usage error is 2.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { buffer } from 'node:stream/consumers'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import type { AdviceSetDocument } from '../src/services/library/portable-format.ts'
import { diffDocuments, diffLines } from '../src/services/library/portable-diff.ts'
import { DIR_SET_FILE, joinDocumentText, PortableDirError, placeInDirectory, splitDocumentText } from '../src/services/library/portable-dir.ts'
import type { ImportPlan } from '../src/services/library/portable-import-plan.ts'

// The format's heavier modules (the validator, the ZIP reader and writer) load only for the commands that need them:
// a tool run should start quickly.
const zipModule = () => import('../src/services/library/portable-zip.ts')
const fileModule = () => import('../src/services/library/portable-file.ts')
const FILES_FOLDER = 'files/'

/** A failure the tool reports in one message and an exit code (2 for usage and diff errors). */
class CliError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message)
  }
}

const CONNECTION_OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options']

const CONNECTION_HELP = `
Connection (for commands that talk to an instance):
  --url URL       the instance, e.g. https://advice.example.org (or env ADVICE_URL)
  --token TOKEN   a personal access token, ast_… (or env ADVICE_TOKEN); make one on your profile page
                  with the scope the command needs: export (export, diff of set:…) or import (import)`

const HELP: Record<string, string> = {
  main: `advice-studio: export, import and compare Advice Studio advice sets (advice-set@1 files)

Usage:
  npm run advice -- <command> [options]      or      npx advice-studio <command> [options]

Commands:
  export <setId>            write a set (its draft or a version) as a file or a directory
  import <file|dir>         import a file or directory into an instance (a new set, or --into a set)
  diff <a> <b>              list what changed between two documents (files, directories or set:<id>)

Run "<command> --help" for each command's options.
${CONNECTION_HELP}`,
  export: `Usage: export <setId> [--version N] [--zip] [--out FILE | --dir FOLDER] [--url URL] [--token TOKEN]

Writes the advice set <setId> of the instance as an advice-set@1 document (token scope: export).
  --version N     the published version N, exactly as published (default: the working draft)
  --zip           the ZIP form: set.json and the supplements' files under files/
  --out FILE      write to FILE (default: standard output)
  --dir FOLDER    write the directory form, for review in git:
                    FOLDER/set.json                        everything but the rules; "rules" lists the rule keys in order
                    FOLDER/rules/<nn>-<name>-<key>.json    one file per rule, its nodes in tree order
                    FOLDER/files/…                         the supplements' files
                  Files under rules/ and files/ that are not in the export are removed. import and diff read
                  the folder back into the same document, byte for byte.
${CONNECTION_HELP}`,
  import: `Usage: import <file|dir> [--into SETID] [--dry-run] [--url URL] [--token TOKEN]

Imports an advice-set@1 document (.json), its ZIP form (.zip) or a directory written by "export --dir"
(token scope: import). Prints the plan (rules, nodes, dictionary, scenarios… to create, update or delete, and
warnings), then the imported set and how its scenarios ran.
  --into SETID    import into this existing set (one change of its working draft); default: a new set
  --dry-run       show the plan and every problem; write nothing
Exit code: 0 when imported (or the dry run found no error), 1 when refused or when a scenario fails after import.
${CONNECTION_HELP}`,
  diff: `Usage: diff <a> <b> [--url URL] [--token TOKEN]

Lists what changed from <a> to <b>: the set's fields, rules (added, removed, renamed, moved), nodes by key
(added, removed, moved, each changed field old → new), dictionary entries, scenarios, keyword maps, external APIs
and supplements. Each side is one of:
  path/to/set.json | path/to/set.zip     a file
  path/to/folder                          a directory written by "export --dir"
  set:<id>                                the working draft of set <id> on --url (token scope: export)
  set:<id>@<N>                            its published version N
  -                                       standard input (a JSON document)
Prints nothing when they are equal. Exit code: 0 equal, 1 different, 2 error.
${CONNECTION_HELP}`,
}

// ---------------------------------------------------------------------------------------------------------------
// Talking to the instance

interface Connection { base: string; token: string }

function connectionOf(values: { url?: string; token?: string }): Connection {
  const raw = values.url ?? process.env.ADVICE_URL
  if (!raw) throw new CliError('give the instance with --url (or set ADVICE_URL), e.g. --url https://advice.example.org', 2)
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new CliError(`--url: “${raw}” is not a URL; give e.g. https://advice.example.org`, 2)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new CliError(`--url: use an http or https address, not ${url.protocol}`, 2)
  if (url.username || url.password) throw new CliError('--url: leave the user name and password out of the address; the token signs in', 2)
  const token = values.token ?? process.env.ADVICE_TOKEN
  if (!token) throw new CliError('give a personal access token with --token (or set ADVICE_TOKEN); make one on your profile page', 2)
  return { base: `${url.origin}${url.pathname.replace(/\/+$/, '')}`, token }
}

/** A request to the instance (only ever `connection.base` + path), with the token; refuses to follow redirects. */
async function call(connection: Connection, method: string, pathAndQuery: string, body?: FormData): Promise<Response> {
  const target = `${connection.base}${pathAndQuery}`
  let res: Response
  try {
    res = await fetch(target, { method, body, redirect: 'manual', headers: { authorization: `Bearer ${connection.token}`, accept: 'application/json' } })
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause
    throw new CliError(`cannot reach ${connection.base}: ${cause?.code ?? cause?.message ?? (err as Error).message}`)
  }
  if (res.status >= 300 && res.status < 400) {
    throw new CliError(`${connection.base} answered ${method} ${pathAndQuery.split('?')[0]} with a redirect to ${res.headers.get('location') ?? '?'}; the tool follows none: give the instance's own address as --url`)
  }
  return res
}

interface ApiError { message?: string; field?: string; pointer?: string; line?: number; column?: number; errors?: Array<{ pointer?: string; message?: string; line?: number; column?: number }>; warnings?: Array<{ pointer?: string; message?: string }> }

async function errorOf(res: Response): Promise<ApiError> {
  const text = await res.text()
  try {
    const body = JSON.parse(text) as { error?: ApiError; message?: string }
    return body.error ?? { message: body.message ?? text.slice(0, 500) }
  } catch {
    return { message: `${res.status} ${res.statusText}: ${text.slice(0, 200)}` }
  }
}

async function failed(res: Response, what: string): Promise<never> {
  const error = await errorOf(res)
  throw new CliError(`${what}: ${res.status} ${error.message ?? res.statusText}`)
}

function setIdOf(raw: string | undefined, name: string): string {
  if (raw === undefined || !/^[1-9][0-9]{0,15}$/.test(raw)) throw new CliError(`${name}: give an advice set id (a number, as in /adviceset/12)`, 2)
  return raw
}

async function exportFrom(connection: Connection, setId: string, opts: { version?: string; zip?: boolean }): Promise<Buffer> {
  const query = new URLSearchParams()
  if (opts.version !== undefined) query.set('version', opts.version)
  if (opts.zip) query.set('format', 'zip')
  const qs = query.size ? `?${query}` : ''
  const res = await call(connection, 'GET', `/api/adviceset/${setId}/export${qs}`)
  if (!res.ok) await failed(res, `export of set ${setId}${opts.version ? ` version ${opts.version}` : ''}`)
  return Buffer.from(await res.arrayBuffer())
}

// ---------------------------------------------------------------------------------------------------------------
// Files and directories

/** Every file under `dir` by its path relative to it, with `/` between folders. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
}

interface DirectoryRead { texts: Map<string, string>; files: Map<string, Buffer>; text: string }

/** A directory written by `export --dir`, joined into the document's text; files/… as the ZIP form's files. */
function readDirectory(dir: string): DirectoryRead {
  const texts = new Map<string, string>()
  const files = new Map<string, Buffer>()
  for (const relative of filesUnder(dir)) {
    if (relative === DIR_SET_FILE || (relative.startsWith('rules/') && relative.endsWith('.json'))) texts.set(relative, readFileSync(path.join(dir, relative), 'utf8'))
    else if (relative.startsWith(FILES_FOLDER)) files.set(relative.slice(FILES_FOLDER.length), readFileSync(path.join(dir, relative)))
  }
  try {
    return { texts, files, text: joinDocumentText(texts) }
  } catch (err) {
    if (err instanceof PortableDirError) throw new CliError(`${path.join(dir, err.file)}: ${err.message.slice(err.file.length + 2)}`, 2)
    throw err
  }
}

/** Writes the directory form of an exported ZIP into `dir`, removing rule and supplement files the export has not. */
async function writeDirectory(dir: string, zip: Buffer): Promise<{ rules: number; files: number }> {
  const { setJson, files } = await (await zipModule()).readPortableZip(zip)
  const texts = splitDocumentText(setJson.toString('utf8'))
  mkdirSync(dir, { recursive: true })
  for (const relative of filesUnder(path.join(dir, 'rules'))) {
    if (relative.endsWith('.json') && !texts.has(`rules/${relative}`)) rmSync(path.join(dir, 'rules', relative))
  }
  for (const relative of filesUnder(path.join(dir, 'files'))) if (!files.has(relative)) rmSync(path.join(dir, 'files', relative))
  for (const [relative, text] of texts) {
    mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true })
    writeFileSync(path.join(dir, relative), text)
  }
  for (const [relative, bytes] of files) {
    const target = path.join(dir, 'files', ...relative.split('/'))
    mkdirSync(path.dirname(target), { recursive: true })
    writeFileSync(target, bytes)
  }
  return { rules: texts.size - 1, files: files.size }
}

/** The format's validator, compiled once when first needed. */
let validator: { Check(value: unknown): boolean; Errors(value: unknown): Iterable<{ instancePath: string; message: string }> } | null = null

async function formatValidator() {
  if (!validator) {
    const [{ Compile }, { AdviceSetDocument }] = await Promise.all([import('typebox/compile'), import('../src/services/library/portable-format.ts')])
    validator = Compile(AdviceSetDocument)
  }
  return validator
}

interface Side { label: string; document: AdviceSetDocument }

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory()
  } catch {
    return false
  }
}

/** A document checked against the format, or a CliError naming each problem's pointer, line and column. */
async function checkedDocument(document: unknown, text: string, label: string, place?: (pointer: string) => string): Promise<AdviceSetDocument> {
  const validator = await formatValidator()
  const { locate } = await fileModule()
  if (validator.Check(document)) return document as AdviceSetDocument
  const problems = [...validator.Errors(document)].slice(0, 10).map((e) => {
    const pointer = e.instancePath
    if (place) return `  ${place(pointer)}: ${e.message}`
    const at = locate(text, pointer)
    return `  ${pointer || '/'}${at ? ` (line ${at.line}, column ${at.column})` : ''}: ${e.message}`
  })
  throw new CliError(`${label} is not an advice-set@1 document:\n${problems.join('\n')}`, 2)
}

/** One side of a diff: a live set (`set:<id>[@N]`), a directory, standard input (`-`) or a file. */
async function readSide(spec: string, values: { url?: string; token?: string }): Promise<Side> {
  const live = /^set:([1-9][0-9]{0,15})(?:@([1-9][0-9]{0,8}))?$/.exec(spec)
  if (spec.startsWith('set:') && !live) throw new CliError(`${spec}: write a live set as set:<id> or set:<id>@<version>, e.g. set:12 or set:12@3`, 2)
  if (live) {
    const connection = connectionOf(values)
    const bytes = await exportFrom(connection, live[1]!, { version: live[2] })
    const upload = await (await fileModule()).readPortableUpload(bytes, `${spec}.json`)
    return { label: `${spec} on ${connection.base}`, document: await checkedDocument(upload.document, upload.text, spec) }
  }
  if (spec !== '-' && isDirectory(spec)) {
    const dir = readDirectory(spec)
    const upload = await (await fileModule()).readPortableUpload(Buffer.from(dir.text), spec)
    return {
      label: spec,
      document: await checkedDocument(upload.document, upload.text, spec, (pointer) => {
        const at = placeInDirectory(dir.texts, pointer)
        return `${path.join(spec, at.file)} ${at.pointer || '/'}${at.line ? ` (line ${at.line}, column ${at.column})` : ''}`
      }),
    }
  }
  let bytes: Buffer
  try {
    bytes = spec === '-' ? readFileSync(0) : readFileSync(spec)
  } catch (err) {
    throw new CliError(`${spec}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (err as Error).message}`, 2)
  }
  const upload = await (await fileModule()).readPortableUpload(bytes, spec)
  return { label: spec, document: await checkedDocument(upload.document, upload.text, spec) }
}

// ---------------------------------------------------------------------------------------------------------------
// Printing an import plan

/** "2 to create (Plan, Savings)": a count with the names, the first few of a long list. */
function counted(names: string[] | undefined, verb: string): string {
  const list = names ?? []
  if (list.length === 0) return `0 ${verb}`
  const shown = list.slice(0, 8).map((n) => `“${n}”`).join(', ')
  return `${list.length} ${verb} (${shown}${list.length > 8 ? `, and ${list.length - 8} more` : ''})`
}

function planLines(plan: ImportPlan): string[] {
  const lines = [
    plan.target.adviceSetId === null ? `Import as a new set “${plan.target.name}”` : `Import into set ${plan.target.adviceSetId} “${plan.target.name}”`,
    `  rules:         ${counted(plan.rules?.create, 'to create')}, ${counted(plan.rules?.update, 'to update')}, ${counted(plan.rules?.delete, 'to delete')}`,
    `  nodes:         ${plan.nodes?.create ?? 0} to create, ${plan.nodes?.keep ?? 0} kept, ${plan.nodes?.delete ?? 0} to delete`,
    `  dictionary:    ${counted(plan.dictionary?.create, 'to create')}, ${counted(plan.dictionary?.reuse, 'reused')}, ${counted(plan.dictionary?.update, 'to update')}`,
    `  scenarios:     ${counted(plan.scenarios?.create, 'to create')}, ${counted(plan.scenarios?.update, 'to update')}`,
    `  keyword maps:  ${counted(plan.keywordMaps?.create, 'to create')}, ${counted(plan.keywordMaps?.update, 'to update')}`,
    `  external APIs: ${counted(plan.externalApis?.create, 'to create')}, ${counted(plan.externalApis?.reuse, 'reused')}`,
    `  supplements:   ${counted(plan.supplements?.create, 'to create')}, ${counted(plan.supplements?.reuse, 'reused')}, ${counted(plan.supplements?.leftOut, 'left out')}`,
  ]
  return lines
}

/** `  /rules/0/nodes/2/type (line 12, column 19): message`, or in the directory's own file when it came from one. */
function issueLine(issue: { pointer?: string; message?: string; line?: number; column?: number }, dir: { path: string; texts: Map<string, string> } | null): string {
  // The server's messages may start with their pointer already: it is written once, before the message.
  const message = issue.pointer && issue.message?.startsWith(`${issue.pointer}: `) ? issue.message.slice(issue.pointer.length + 2) : issue.message
  issue = { ...issue, message }
  if (dir && issue.pointer !== undefined) {
    const at = placeInDirectory(dir.texts, issue.pointer)
    return `  ${path.join(dir.path, at.file)} ${at.pointer || '/'}${at.line ? ` (line ${at.line}, column ${at.column})` : ''}: ${issue.message}`
  }
  const where = issue.pointer !== undefined ? `${issue.pointer || '/'}${issue.line ? ` (line ${issue.line}, column ${issue.column})` : ''}: ` : ''
  return `  ${where}${issue.message}`
}

// ---------------------------------------------------------------------------------------------------------------
// Commands

type Out = (line: string) => void

async function exportCommand(args: string[], out: Out): Promise<number> {
  const { values, positionals } = parseArgs({
    args, allowPositionals: true,
    options: { ...CONNECTION_OPTIONS, version: { type: 'string' }, zip: { type: 'boolean' }, out: { type: 'string' }, dir: { type: 'string' } },
  })
  if (values.help) return help('export', out)
  if (positionals.length !== 1) throw new CliError('export: give one advice set id, e.g. export 12 --out set.json', 2)
  const setId = setIdOf(positionals[0], 'export')
  if (values.version !== undefined && !/^[1-9][0-9]{0,8}$/.test(values.version)) throw new CliError('--version: give a version number (1, 2, …)', 2)
  if (values.out !== undefined && values.dir !== undefined) throw new CliError('export: give --out or --dir, not both', 2)
  const connection = connectionOf(values)
  if (values.dir !== undefined) {
    // The directory form always comes from the ZIP form: it carries the supplements' files too.
    const zip = await exportFrom(connection, setId, { version: values.version, zip: true })
    const written = await writeDirectory(values.dir, zip)
    out(`Wrote ${values.dir}: set.json, ${written.rules} rule file${written.rules === 1 ? '' : 's'}, ${written.files} supplement file${written.files === 1 ? '' : 's'}`)
    return 0
  }
  const bytes = await exportFrom(connection, setId, { version: values.version, zip: values.zip })
  if (values.out === undefined) {
    process.stdout.write(bytes)
    return 0
  }
  writeFileSync(values.out, bytes)
  out(`Wrote ${values.out} (${bytes.length} bytes)`)
  return 0
}

async function importCommand(args: string[], out: Out): Promise<number> {
  const { values, positionals } = parseArgs({
    args, allowPositionals: true,
    options: { ...CONNECTION_OPTIONS, into: { type: 'string' }, 'dry-run': { type: 'boolean' } },
  })
  if (values.help) return help('import', out)
  if (positionals.length !== 1) throw new CliError('import: give one file or directory, e.g. import set.json', 2)
  const source = positionals[0]!
  const into = values.into === undefined ? undefined : setIdOf(values.into, '--into')
  const connection = connectionOf(values)
  let upload: { bytes: Buffer; filename: string }
  let dir: { path: string; texts: Map<string, string> } | null = null
  if (isDirectory(source)) {
    const read = readDirectory(source)
    dir = { path: source, texts: read.texts }
    upload = read.files.size
      ? { bytes: await buffer((await zipModule()).writePortableZip(read.text, read.files)), filename: `${path.basename(path.resolve(source))}.zip` }
      : { bytes: Buffer.from(read.text), filename: `${path.basename(path.resolve(source))}.json` }
  } else {
    try {
      upload = { bytes: readFileSync(source), filename: path.basename(source) }
    } catch (err) {
      throw new CliError(`${source}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (err as Error).message}`, 2)
    }
  }
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(upload.bytes)]), upload.filename)
  const query = new URLSearchParams()
  if (values['dry-run']) query.set('dryRun', 'true')
  if (into !== undefined) query.set('into', into)
  const res = await call(connection, 'POST', `/api/adviceset/import${query.size ? `?${query}` : ''}`, form)
  if (res.status === 400) {
    const error = await errorOf(res)
    // A problem of reading the file (syntax, a value of the wrong type) comes as the error itself, with its place.
    if (!error.errors?.length && error.pointer !== undefined) {
      const problem = (error.message ?? '').replace(/^file: [^:]*?(?: \(line \d+, column \d+\))?: /, '')
      error.errors = [{ pointer: error.pointer, message: problem, line: error.line, column: error.column }]
    }
    out(`Refused: ${error.message ?? 'the file was not imported'}`)
    if (error.errors?.length) {
      out('Problems:')
      for (const issue of error.errors) out(issueLine(issue, dir))
    }
    if (error.warnings?.length) {
      out('Warnings:')
      for (const issue of error.warnings) out(issueLine(issue, dir))
    }
    out('Nothing was written.')
    return 1
  }
  if (!res.ok) await failed(res, 'import')
  const body = await res.json() as { data: ImportPlan | { plan: ImportPlan; adviceSet: { id: number; name: string; uri: string }; scenarios: { counts: Record<string, number>; results: Array<{ name: string; status: string }> } } }
  const data = body.data
  const plan = 'plan' in data ? data.plan : data
  for (const line of planLines(plan)) out(line)
  if (plan.warnings?.length) {
    out('Warnings:')
    for (const issue of plan.warnings) out(issueLine(issue, dir))
  }
  if (plan.errors?.length) {
    out('Problems:')
    for (const issue of plan.errors) out(issueLine(issue, dir))
  }
  if (!('plan' in data)) {
    out(plan.errors?.length ? 'Dry run: the import would be refused; nothing was written.' : 'Dry run: nothing was written.')
    return plan.errors?.length ? 1 : 0
  }
  const { adviceSet, scenarios } = data
  const link = adviceSet.uri ? ` ${new URL(adviceSet.uri, `${connection.base}/`).toString()}` : ''
  out(`Imported: set ${adviceSet.id} “${adviceSet.name}”${link}`)
  const counts = scenarios.counts
  const total = Object.values(counts).reduce((n, c) => n + c, 0)
  out(`Scenarios: ${total} run: ${Object.entries(counts).map(([status, n]) => `${n} ${status}`).join(', ')}`)
  const bad = scenarios.results.filter((r) => r.status !== 'pass')
  for (const r of bad) out(`  ${r.status}: “${r.name}”`)
  return bad.length ? 1 : 0
}

async function diffCommand(args: string[], out: Out): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { ...CONNECTION_OPTIONS } })
  if (values.help) return help('diff', out)
  if (positionals.length !== 2) throw new CliError('diff: give two sides, e.g. diff old.json new.json, diff set:12 ./my-set', 2)
  const [a, b] = await Promise.all(positionals.map((spec) => readSide(spec, values)))
  const lines = diffLines(diffDocuments(a!.document, b!.document))
  for (const line of lines) out(line)
  return lines.length ? 1 : 0
}

function help(topic: string, out: Out): number {
  out(HELP[topic]!)
  return 0
}

const COMMANDS: Record<string, (args: string[], out: Out) => Promise<number>> = { export: exportCommand, import: importCommand, diff: diffCommand }

/** Runs the tool with `argv` (without node and the script); resolves to the exit code. */
export async function runCli(argv: string[], out: Out = (line) => console.log(line), err: Out = (line) => console.error(line)): Promise<number> {
  const [command, ...rest] = argv
  const errorCode = command === 'diff' ? 2 : 1
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') return help('main', out)
  const run = COMMANDS[command]
  if (!run) {
    err(`advice-studio: unknown command “${command}”; the commands are export, import and diff (see --help)`)
    return 2
  }
  try {
    return await run(rest, out)
  } catch (error) {
    if (error instanceof CliError) {
      err(`advice-studio ${command}: ${error.message}`)
      return error.exitCode === 1 ? errorCode : error.exitCode
    }
    if (error instanceof (await fileModule()).PortableFileError) {
      err(`advice-studio ${command}: ${error.message.replace(/^file: /, '')}`)
      return 2
    }
    // parseArgs: an unknown option or a missing value.
    if ((error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      err(`advice-studio ${command}: ${(error as Error).message} (see ${command} --help)`)
      return 2
    }
    throw error
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('advice-cli.ts')) {
  process.exitCode = await runCli(process.argv.slice(2))
}
