// DESIGN "Layout": routes → services → db/queries; src/engine imports nothing outside itself; services live in
// the folder of their family. Every import in src/ is read with TypeScript's own pre-processor (static, dynamic
// and re-exports, type-only ones too) and checked against those rules.
import t from 'tap'
import { readdirSync, readFileSync, realpathSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

// The sources themselves: `npm test` runs a compiled mirror whose src/ holds .js files beside links to the .ts ones
// (scripts/build-tests.ts), and a linked file's real path is in the repository's src/.
const SRC = path.dirname(realpathSync(path.resolve(import.meta.dirname, '../../../src/app.ts')))

/** Packages the engine may use: pure libraries for markdown, sanitizing, number and date formats, linear-time regular expressions. No I/O. */
const ENGINE_PACKAGES = new Set(['markdown-it', 'sanitize-html', 'numbro', 'date-fns', 'date-fns-tz', 're2js'])
/** What may sit at the top of src/services beside the domain folders: the shared kernel. */
const SERVICES_TOP_FILES = new Set(['README.md', 'context.ts', 'errors.ts', 'validate.ts', 'search.ts', 'one-at-a-time.ts'])
/**
 * DESIGN's domains (accounts, library, authoring, scenarios, publishing, delivery, files, integrations, operations)
 * and decisions (issue 26: decision records, their reading, replay and subject rights)
 * plus audit, the kernel's files and this README: a new domain is a decision, so it has to move this number too.
 */
const SERVICES_TOP_LIMIT = 17

interface Violation { file: string; imports: string; rule: string }

/** `file` and the project files it imports (resolved, relative to src/), or the package name for a bare import. */
function importsOf(file: string, text: string): Array<{ specifier: string; target: string | null }> {
  return ts.preProcessFile(text, true, true).importedFiles.map(({ fileName }) => ({
    specifier: fileName,
    target: fileName.startsWith('.') ? path.relative(SRC, path.resolve(SRC, path.dirname(file), fileName)) : null,
  }))
}

const under = (dir: string, file: string) => file.startsWith(`${dir}/`)

/** The layering rules over a set of files given by their path relative to src/ and their text. */
export function layeringViolations(files: Map<string, string>): Violation[] {
  const violations: Violation[] = []
  for (const [file, text] of files) {
    for (const { specifier, target } of importsOf(file, text)) {
      const refuse = (rule: string) => violations.push({ file, imports: specifier, rule })
      if (under('engine', file)) {
        if (target !== null && !under('engine', target)) refuse('src/engine imports nothing outside itself')
        if (target === null && !ENGINE_PACKAGES.has(specifier)) refuse('src/engine is pure: no I/O or framework packages')
      }
      if (under('http', file) && target !== null && (under('db/schema', target) || under('db/queries', target))) {
        refuse('routes go through services, never db/schema or db/queries')
      }
      if (under('http', file) && target === null && specifier.startsWith('drizzle-orm')) refuse('routes never build queries')
      if (under('services', file) && target !== null && under('http', target)) refuse('services do not depend on the HTTP layer')
      if (under('db', file) && target !== null && (under('services', target) || under('http', target))) refuse('db/ is the bottom layer')
    }
  }
  return violations
}

function sourceFiles(): Map<string, string> {
  const files = new Map<string, string>()
  for (const entry of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
    if (entry.endsWith('.ts')) files.set(entry, readFileSync(path.join(SRC, entry), 'utf8'))
  }
  return files
}

t.test('every import in src/ keeps the layering', async (t) => {
  const files = sourceFiles()
  t.ok(files.size > 200, `read ${files.size} files`)
  t.same(layeringViolations(files), [])
})

t.test('the checker refuses each kind of violation', async (t) => {
  const rules = layeringViolations(new Map([
    ['engine/a.ts', "import { x } from '../services/errors.ts'\nimport fs from 'node:fs'\nimport md from 'markdown-it'"],
    ['http/pages/b.ts', "import type { UserRow } from '../../db/queries/users.ts'\nconst s = await import('../../db/schema/index.ts')\nimport { eq } from 'drizzle-orm'"],
    ['services/c/d.ts', "export { actorOf } from '../../http/plugins/auth.ts'"],
    ['db/queries/e.ts', "import { audit } from '../../services/audit/audit.ts'"],
    ['http/api/ok.ts', "import { getRule } from '../../services/authoring/rules.ts'\nimport type { Db } from '../../db/client.ts'"],
  ])).map((v) => `${v.file} ${v.imports}`)
  t.same(rules, [
    'engine/a.ts ../services/errors.ts',
    'engine/a.ts node:fs',
    'http/pages/b.ts ../../db/queries/users.ts',
    'http/pages/b.ts ../../db/schema/index.ts',
    'http/pages/b.ts drizzle-orm',
    'services/c/d.ts ../../http/plugins/auth.ts',
    'db/queries/e.ts ../../services/audit/audit.ts',
  ])
})

t.test('src/services: one folder per domain, a small shared kernel at the top', async (t) => {
  const entries = readdirSync(path.join(SRC, 'services'), { withFileTypes: true })
  t.ok(entries.length <= SERVICES_TOP_LIMIT, `${entries.length} entries at the top of src/services`)
  const looseFiles = entries.filter((e) => e.isFile() && !SERVICES_TOP_FILES.has(e.name)).map((e) => e.name)
  t.same(looseFiles, [], 'every other file sits in the folder of its family')
})
