// `npm run bench`: every benchmark, one after another, each in its own process with --expose-gc.
import { spawnSync } from 'node:child_process'
import path from 'node:path'

const BENCHES = ['engine.ts', 'library.ts', 'search.ts', 'http.ts', 'rule-tree.ts', 'api.ts', 'scenario-runs.ts', 'files.ts']

let failed = 0
for (const file of BENCHES) {
  console.log(`\n##### ${file}`)
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(import.meta.dirname, file)], { stdio: 'inherit' })
  if (run.status !== 0) failed += 1
}
process.exit(failed > 0 ? 1 : 0)
