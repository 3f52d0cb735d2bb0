import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const ENGINE = fileURLToPath(new URL('../../../src/engine/', import.meta.url))
const FORBIDDEN = [/\beval\s*\(/, /\bnew\s+Function\b/, /\bFunction\s*\(/]

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  )
}

function findForbidden(text: string): string | undefined {
  return FORBIDDEN.find((pattern) => pattern.test(text))?.source
}

t.test('the detector recognises each forbidden form', async (t) => {
  t.ok(findForbidden('const x = eval("1")'))
  t.ok(findForbidden('const f = new Function("a", "return a")'))
  t.ok(findForbidden('const f = Function("return 1")'))
  t.notOk(findForbidden('const evaluate = (x) => x; retrieval(); isFunction(x)'))
})

t.test('no engine source uses eval, new Function or Function(', async (t) => {
  const files = filesUnder(ENGINE)
  t.ok(files.some((file) => file.endsWith('compile.ts')), 'the engine sources were found')
  for (const file of files) {
    t.equal(findForbidden(readFileSync(file, 'utf8')), undefined, relative(ENGINE, file))
  }
})
