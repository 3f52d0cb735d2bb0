// Bundles islands/ into static/build/: loader.js (the page entry with the plain-DOM shared islands, no React),
// code-split chunks under chunks/ (one per area; React and the shared modules load with an area chunk, only on
// pages that hold a React island), islands.css and manifest.json.
// `npm run build` runs it; start-up and the tests call buildIslandsIfStale().
import { build } from 'esbuild'
import type { OutputFile } from 'esbuild'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const BUILD_DIR = path.join(ROOT, 'static', 'build')

export interface BuiltFile {
  file: string
  bytes: number
  gzipBytes: number
}

export interface BuildManifest {
  loader: string
  css: string
  files: BuiltFile[]
}

// Each file is written beside its final name and renamed into place, and loader.js goes last, so a server
// started while a build runs (parallel test files) never serves a half-written or dangling file.
// The temporary name is the process's and the write's own: two builds in one process (servers started together by one
// test file) wrote the same temporary file, and the second rename found it gone.
let writes = 0
async function writeAtomically(filePath: string, contents: Uint8Array | string): Promise<void> {
  await mkdir(path.dirname(filePath), { recursive: true })
  const temporary = `${filePath}.${process.pid}-${++writes}.tmp`
  await writeFile(temporary, contents)
  await rename(temporary, filePath)
}

async function removeStaleFiles(dir: string, keep: ReadonlySet<string>): Promise<void> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  await Promise.all(entries
    .filter((entry) => entry.isFile() && !keep.has(path.join(entry.parentPath, entry.name)))
    .filter((entry) => !entry.name.endsWith('.tmp'))
    .map((entry) => rm(path.join(entry.parentPath, entry.name), { force: true })))
}

function describe(file: OutputFile): BuiltFile {
  return {
    file: path.relative(BUILD_DIR, file.path),
    bytes: file.contents.byteLength,
    gzipBytes: gzipSync(file.contents, { level: 9 }).byteLength,
  }
}

export async function buildIslands(outdir = BUILD_DIR): Promise<BuildManifest> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: {
      'loader': 'islands/loader.ts',
      // The embed page's only script (views/embed): the interview without the loader or React.
      'interview': 'islands/interview/index.ts',
      'islands': 'static/css/islands.css',
    },
    outdir,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    sourcemap: 'linked',
    // React ships its development build unless told otherwise.
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    write: false,
    logLevel: 'warning',
  })
  const outputs = result.outputFiles
  const loader = outputs.filter((file) => path.basename(file.path) === 'loader.js')
  const write = (file: OutputFile) => writeAtomically(file.path, file.contents)
  await Promise.all(outputs.filter((file) => !loader.includes(file)).map(write))
  await Promise.all(loader.map(write))

  const manifest: BuildManifest = {
    loader: 'loader.js',
    css: 'islands.css',
    files: outputs.filter((file) => !file.path.endsWith('.map')).map(describe),
  }
  const manifestPath = path.join(outdir, 'manifest.json')
  await writeAtomically(manifestPath, JSON.stringify(manifest, null, 2))
  await removeStaleFiles(outdir, new Set([...outputs.map((file) => file.path), manifestPath]))
  return manifest
}

function formatKb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now()
  const manifest = await buildIslands()
  for (const { file, bytes, gzipBytes } of manifest.files) {
    console.log(`${file.padEnd(40)} ${formatKb(bytes).padStart(10)} min  ${formatKb(gzipBytes).padStart(10)} gzip`)
  }
  console.log(`Islands built into ${path.relative(process.cwd(), BUILD_DIR) || '.'} in ${Math.round(performance.now() - started)} ms`)
}

const ISLAND_SOURCES = [path.join(ROOT, 'islands'), path.join(ROOT, 'src', 'engine'), path.join(ROOT, 'static', 'css')]

function newestSourceTime(): number {
  return Math.max(...ISLAND_SOURCES.filter((source) => existsSync(source)).flatMap((source) => statSync(source).isDirectory()
    ? readdirSync(source, { recursive: true, encoding: 'utf8' }).map((file) => statSync(path.join(source, file)).mtimeMs)
    : [statSync(source).mtimeMs]))
}

const buildsUnderWay = new Map<string, Promise<BuildManifest>>()

/** Rebuilds when the bundles are missing or older than any island source (after an edit or a pull). */
export async function buildIslandsIfStale(outdir = BUILD_DIR): Promise<boolean> {
  const manifest = path.join(outdir, 'manifest.json')
  if (existsSync(manifest) && statSync(manifest).mtimeMs >= newestSourceTime()) return false
  // Servers started together in one process share the build under way instead of each making its own.
  let building = buildsUnderWay.get(outdir)
  if (building === undefined) {
    building = buildIslands(outdir).finally(() => buildsUnderWay.delete(outdir))
    buildsUnderWay.set(outdir, building)
  }
  await building
  return true
}
