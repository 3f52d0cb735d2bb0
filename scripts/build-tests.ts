// Compiles the TypeScript that test processes load (src, islands, scripts, test) into .test-build/, so that each of the ~300
// test processes `npm test` starts loads plain JavaScript instead of going through tsx's module hooks. Measured on
// an API test file: the hooks thread alone spent ~9 s of CPU resolving and reading ~1,700 modules (PGlite, the app
// and the tap run took the rest), and every file pays that again.
//
// The tree is a mirror of the repository: each .ts/.tsx file is compiled to a .js beside a symlink to its source,
// every other file is a symlink, and views/, static/, migrations/, node_modules/ and package.json are linked at the
// top. Paths a module works out from import.meta.dirname (views, migrations, the sources a test reads, a helper a
// test starts with tsx) therefore point at the same files as in the repository.
import { build, type Plugin } from 'esbuild'
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import path from 'node:path'

const ROOT = path.resolve(import.meta.dirname, '..')
export const TEST_BUILD_DIR = path.join(ROOT, '.test-build')
const COMPILED_DIRS = ['src', 'islands', 'scripts', 'test']
const LINKED = ['views', 'static', 'migrations', 'node_modules', 'package.json']

const isCompiled = (file: string) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts')

/** Every import stays an import; a relative one to a .ts/.tsx file names the .js compiled beside it. */
const keepImports: Plugin = {
  name: 'keep-imports',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined
      return { path: args.path.startsWith('.') ? args.path.replace(/\.tsx?$/, '.js') : args.path, external: true }
    })
  },
}

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
}

function link(relative: string): void {
  const target = path.join(TEST_BUILD_DIR, relative)
  mkdirSync(path.dirname(target), { recursive: true })
  symlinkSync(path.relative(path.dirname(target), path.join(ROOT, relative)), target)
}

export async function buildTests(): Promise<void> {
  rmSync(TEST_BUILD_DIR, { recursive: true, force: true })
  const files = COMPILED_DIRS.flatMap(filesUnder)
  for (const file of files) link(file)
  for (const entry of LINKED) if (existsSync(path.join(ROOT, entry))) link(entry)
  await build({
    absWorkingDir: ROOT,
    entryPoints: files.filter(isCompiled),
    outdir: TEST_BUILD_DIR,
    outbase: ROOT,
    bundle: true,
    plugins: [keepImports],
    platform: 'node',
    format: 'esm',
    target: 'node20',
    jsx: 'automatic',
    sourcemap: 'linked',
    logLevel: 'warning',
  })
}

/** The compiled path of a test file given by its repository path. */
export function compiledTestFile(file: string): string {
  return path.join(path.relative(ROOT, TEST_BUILD_DIR), file.replace(/\.tsx?$/, '.js'))
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) await buildTests()
