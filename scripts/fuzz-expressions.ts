// `npm run fuzz:expressions`: the issue-18 expression fuzz at full size (FUZZ_RUNS, default 1,000,000; FUZZ_SEED).
// Prints the counts, every crash (any throw other than EngineError) and every evaluation over 100 ms; exits 1 on any.
import { fuzzExpressions, runOne, SLOW_EVALUATION_MS } from '../test/helpers/expression-fuzz.ts'

const runs = Number(process.env.FUZZ_RUNS ?? 1_000_000)
const seed = Number(process.env.FUZZ_SEED ?? 18)
const started = performance.now()
const report = fuzzExpressions({
  runs, seed,
  onProgress: (done) => process.stdout.write(`  ${done.toLocaleString('en')} inputs, ${((performance.now() - started) / 1000).toFixed(0)} s\n`),
})
const seconds = (performance.now() - started) / 1000
console.log(`inputs: ${report.inputs.toLocaleString('en')} (seed ${seed}) in ${seconds.toFixed(1)} s`)
console.log(`crashes: ${report.crashes.length}`)
for (const crash of report.crashes.slice(0, 20)) console.log(`  ${JSON.stringify(crash.source)} -> ${crash.error}`)
console.log(`first tries over ${SLOW_EVALUATION_MS} ms: ${report.slowFirstTries}; still over it on each of three re-checks: ${report.slow.length}`)
for (const slow of report.slow.slice(0, 20)) console.log(`  ${slow.ms.toFixed(1)} ms ${JSON.stringify(slow.source.slice(0, 300))}`)
console.log(`slowest single try: ${report.slowest.ms.toFixed(1)} ms ${JSON.stringify(report.slowest.source.slice(0, 300))}`)
const again = Math.min(...[0, 1, 2].map(() => runOne(report.slowest.source, [null]).ms))
console.log(`  the same input re-run (best of 3, every variable blank): ${again.toFixed(1)} ms`)
process.exitCode = report.crashes.length > 0 || report.slow.length > 0 ? 1 : 0
