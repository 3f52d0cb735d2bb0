// Static checks benchmark: the whole set's checks run after each save in the rule editor, so on a 2,000-node set
// they must finish while the author types. Target: median under 100 ms over 15 runs (after 3 warm-up runs).
import { staticChecks } from '../../src/engine/checks/index.ts'
import { largeCheckedSet } from '../../test/fixtures/engine/large-checked-set.ts'

const TARGET_MS = 100
const model = largeCheckedSet()
for (let i = 0; i < 3; i++) staticChecks(model)
const times: number[] = []
for (let i = 0; i < 15; i++) {
  const started = performance.now()
  staticChecks(model)
  times.push(performance.now() - started)
}
times.sort((a, b) => a - b)
const median = times[7]!
console.log(`static checks on 2,000 nodes: median ${median.toFixed(1)} ms, fastest ${times[0]!.toFixed(1)} ms, slowest ${times.at(-1)!.toFixed(1)} ms (target: median < ${TARGET_MS} ms) ${median < TARGET_MS ? 'MET' : 'MISSED'}`)
