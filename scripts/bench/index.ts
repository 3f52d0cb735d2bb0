// `npm run bench`: every benchmark in this folder, one after another, each in its own process with --expose-gc.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import path from 'node:path'

const here = import.meta.dirname
const benches = readdirSync(here).filter((f) => f.endsWith('.ts') && f !== 'index.ts').sort()
let failed = 0
for (const file of benches) {
  console.log(`\n##### ${file}`)
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(here, file)], { stdio: 'inherit' })
  if (run.status !== 0) failed += 1
}
process.exit(failed > 0 ? 1 : 0)
