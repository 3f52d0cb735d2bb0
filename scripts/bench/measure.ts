// Timing helpers for the engine bench. Throughput is the best of three rounds (the machine is shared, the best
// round is the least disturbed one); latency percentiles come from individually timed calls (at most
// `samples`, within a time budget), so they include the timer's own cost (tens of nanoseconds).
import { performance } from 'node:perf_hooks'

export interface Measured {
  perSecond: number
  p50Ns: number
  p99Ns: number
}

const ROUNDS = 3

export function measureSync(run: (i: number) => number, roundMs: number, samples: number): Measured {
  let sink = 0
  const warmUntil = performance.now() + roundMs
  for (let i = 0; performance.now() < warmUntil; i++) sink += run(i)
  let best = 0
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now()
    let done = 0
    while (performance.now() - started < roundMs) {
      for (let k = 0; k < 256; k++) sink += run(done++)
    }
    best = Math.max(best, done / ((performance.now() - started) / 1000))
  }
  // Latency samples stop at `samples` calls or after three rounds' time, whichever comes first.
  const durations: number[] = []
  const until = performance.now() + 3 * roundMs
  for (let i = 0; i < samples && (i < 100 || performance.now() < until); i++) {
    const started = performance.now()
    sink += run(i)
    durations.push((performance.now() - started) * 1e6)
  }
  keep(sink)
  return { perSecond: best, ...percentiles(Float64Array.from(durations)) }
}

export async function measureAsync(run: (i: number) => Promise<number>, roundMs: number, samples: number): Promise<Measured> {
  let sink = 0
  const warmUntil = performance.now() + roundMs
  for (let i = 0; performance.now() < warmUntil; i++) sink += await run(i)
  let best = 0
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now()
    let done = 0
    while (performance.now() - started < roundMs) sink += await run(done++)
    best = Math.max(best, done / ((performance.now() - started) / 1000))
  }
  const durations = new Float64Array(samples)
  for (let i = 0; i < samples; i++) {
    const started = performance.now()
    sink += await run(i)
    durations[i] = (performance.now() - started) * 1e6
  }
  keep(sink)
  return { perSecond: best, ...percentiles(durations) }
}

/** Batches of `batchSize` calls started together and awaited with Promise.all; latency is per batch / size. */
export async function measureBatched(runBatch: () => Promise<number>, batchSize: number, roundMs: number): Promise<Measured> {
  let sink = 0
  const warmUntil = performance.now() + roundMs
  while (performance.now() < warmUntil) sink += await runBatch()
  let best = 0
  const perCall: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now()
    let done = 0
    while (performance.now() - started < roundMs) {
      const batchStarted = performance.now()
      sink += await runBatch()
      perCall.push(((performance.now() - batchStarted) * 1e6) / batchSize)
      done += batchSize
    }
    best = Math.max(best, done / ((performance.now() - started) / 1000))
  }
  keep(sink)
  return { perSecond: best, ...percentiles(Float64Array.from(perCall)) }
}

function percentiles(durations: Float64Array): { p50Ns: number; p99Ns: number } {
  const sorted = durations.slice().sort()
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
  return { p50Ns: at(0.5), p99Ns: at(0.99) }
}

let kept = 0
/** Results flow here so the optimiser cannot drop the measured work. */
function keep(value: number): void {
  kept += value
  if (kept === -1) console.log(kept)
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

export function formatRate(perSecond: number): string {
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)}M/s`
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toFixed(1)}k/s`
  return `${perSecond.toFixed(0)}/s`
}

export function formatNs(ns: number): string {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`
  return `${ns.toFixed(0)} ns`
}

export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => row[i]!.length)))
  const line = (cells: string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`
  return [line(headers), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(line)].join('\n')
}
