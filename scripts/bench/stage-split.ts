// Where an Advice API request's CPU goes (issue 29, part 1): a CPU profile of the thread serving HTTP while a load
// runs, each sample given to the stage whose entry function is nearest it on the stack. Sampling needs nothing in the
// app: no timer sits on the request path, in production or here. Stages are found by their entry functions (file and
// name); a stage that gets no sample at all is reported, so a rename cannot quietly move its time to "the rest".
import { readFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'

interface CallFrame { functionName: string; url: string }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }

/** A stage and the functions that enter it: a file (the end of its URL) and, optionally, function names in it. */
interface Stage { name: string; entries: Array<{ file: string; functions?: string[] }> }

/** In the order the issue names them, with the request's other steps between. */
export const ADVICE_STAGES: Stage[] = [
  { name: 'key check', entries: [{ file: 'src/services/delivery/api-keys.ts', functions: ['cachedApiKey', 'authenticateApiKey'] }] },
  { name: 'rate limit', entries: [{ file: 'src/services/delivery/rate-limit.ts', functions: ['take'] }] },
  { name: 'input guard (and schema validation)', entries: [{ file: 'src/http/plugins/input-guard.ts' }, { file: 'fastify/lib/validation.js' }] },
  { name: 'served version lookup', entries: [{ file: 'src/services/delivery/advice-api.ts', functions: ['servedFor'] }] },
  { name: 'input coercion', entries: [{ file: 'src/http/api/advice.ts', functions: ['inputsOf'] }, { file: 'src/services/delivery/inputs.ts', functions: ['checkInputs'] }] },
  { name: 'engine', entries: [{ file: 'src/engine/tree/evaluate.ts', functions: ['evaluate'] }] },
  {
    name: 'response building and serialisation',
    entries: [
      { file: 'src/services/delivery/response-json.ts', functions: ['adviceJson'] },
      { file: 'src/services/delivery/media-types.ts', functions: ['negotiateContentType', 'mediaTypeOf'] },
      { file: 'src/services/delivery/fields.ts', functions: ['parseResponseShape'] },
    ],
  },
  { name: 'decision record', entries: [{ file: 'src/services/decisions/recorder.ts', functions: ['record'] }] },
  { name: 'headers (partner onSend hook, reply.header)', entries: [{ file: 'src/http/api/advice-partner.ts', functions: [''] }, { file: 'fastify/lib/reply.js', functions: ['header', 'type'] }] },
  // What fastify does once the hooks have passed the payload on: the status line and headers written, the body to the socket.
  { name: 'send (status line, headers and body to the socket)', entries: [{ file: 'fastify/lib/reply.js', functions: ['onSendEnd'] }] },
  { name: 'usage and events', entries: [{ file: 'src/services/delivery/usage.ts', functions: ['recordApiUsage'] }, { file: 'src/services/delivery/interview-events.ts', functions: ['recordAdviceRun'] }] },
]

/** Samples that are not the thread's work. */
const IDLE = new Set(['(idle)'])

export interface StageSplit {
  /** µs per request by stage, then "the rest" by function (self time), largest first. */
  stages: Array<{ name: string; micros: number }>
  rest: Array<{ name: string; micros: number }>
  restMicros: number
  /** The profile's busy time per request (sum of all stages and the rest). */
  sampledMicros: number
  /** The serving thread's CPU per request as the kernel counted it over the same run. */
  measuredMicros: number
  /** The same with no profiler running, from a run just before: what sampling itself adds. */
  unprofiledMicros: number
  /** Stages that got no sample: their entry functions may have been renamed. */
  missing: string[]
}

/** User and system CPU of this process's main thread (the one serving HTTP), in µs: /proc's clock ticks are 10 ms. */
export function mainThreadCpuMicros(): number {
  const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}

/** A method assigned to a prototype (`Reply.prototype.header = function …`) is profiled under V8's inferred `Reply.header`. */
function named(functionName: string, name: string): boolean {
  return functionName === name || (name !== '' && functionName.endsWith(`.${name}`))
}

function matches(frame: CallFrame, stage: Stage): boolean {
  return stage.entries.some((entry) => frame.url.endsWith(entry.file) && (entry.functions === undefined || entry.functions.some((name) => named(frame.functionName, name))))
}

function frameName(frame: CallFrame): string {
  const file = frame.url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '').replace(/^.*\/(src|scripts)\//, '$1/')
  return `${frame.functionName || '(anonymous)'}${file ? ` ${file}` : ''}`
}

/** Gives each sample to a stage (or to the rest, by its own function) and sums the time per request. */
export function splitProfile(profile: Profile, requests: number, stages: Stage[] = ADVICE_STAGES): Omit<StageSplit, 'measuredMicros' | 'unprofiledMicros'> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  // Each node's stage, found once: its own or its nearest ancestor's entry function.
  const stageOf = new Map<number, number>()
  const stageOfNode = (id: number): number => {
    const known = stageOf.get(id)
    if (known !== undefined) return known
    const node = byId.get(id)!
    const own = stages.findIndex((stage) => matches(node.callFrame, stage))
    const up = parent.get(id)
    const found = own >= 0 ? own : up === undefined ? -1 : stageOfNode(up)
    stageOf.set(id, found)
    return found
  }
  const stageMicros = new Array<number>(stages.length).fill(0)
  const rest = new Map<string, number>()
  let busy = 0
  let restMicros = 0
  for (let i = 0; i < profile.samples.length; i++) {
    // A sample's delta is the time since the one before it: the time this sample stands for is the next one's delta.
    const micros = profile.timeDeltas[i + 1] ?? 0
    const node = byId.get(profile.samples[i]!)!
    if (IDLE.has(node.callFrame.functionName)) continue
    busy += micros
    const stage = stageOfNode(node.id)
    if (stage >= 0) stageMicros[stage]! += micros
    else {
      restMicros += micros
      const name = frameName(node.callFrame)
      rest.set(name, (rest.get(name) ?? 0) + micros)
    }
  }
  return {
    stages: stages.map((stage, i) => ({ name: stage.name, micros: stageMicros[i]! / requests })),
    rest: [...rest].map(([name, micros]) => ({ name, micros: micros / requests })).sort((a, b) => b.micros - a.micros),
    restMicros: restMicros / requests,
    sampledMicros: busy / requests,
    missing: stages.filter((_, i) => stageMicros[i] === 0).map((stage) => stage.name),
  }
}

/**
 * Runs `load` (which returns how many requests it made) twice: first plainly, for the serving thread's CPU per request
 * without a profiler, then under the sampling profiler.
 */
export async function profileStages(load: () => Promise<number>, intervalMicros = 100): Promise<StageSplit> {
  let cpu = mainThreadCpuMicros()
  const plainRequests = await load()
  const unprofiledMicros = (mainThreadCpuMicros() - cpu) / plainRequests
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: intervalMicros })
  await session.post('Profiler.start')
  cpu = mainThreadCpuMicros()
  const requests = await load()
  const measuredMicros = (mainThreadCpuMicros() - cpu) / requests
  const { profile } = await session.post('Profiler.stop') as { profile: Profile }
  await session.post('Profiler.disable')
  session.disconnect()
  return { ...splitProfile(profile, requests), measuredMicros, unprofiledMicros }
}

/** The split as lines of a report. */
export function formatStageSplit(split: StageSplit, restShown = 12): string[] {
  const line = (name: string, micros: number) => `  ${name.padEnd(58)} ${micros.toFixed(1).padStart(6)} µs  ${(100 * micros / split.sampledMicros).toFixed(0).padStart(3)} %`
  const lines = split.stages.map((stage) => line(stage.name, stage.micros))
  lines.push(line('the rest (below, by function)', split.restMicros))
  for (const entry of split.rest.slice(0, restShown)) lines.push(`      ${entry.name.slice(0, 70).padEnd(70)} ${entry.micros.toFixed(1).padStart(6)} µs`)
  const others = split.rest.slice(restShown).reduce((sum, entry) => sum + entry.micros, 0)
  lines.push(`      ${'everything else in the rest'.padEnd(70)} ${others.toFixed(1).padStart(6)} µs`)
  lines.push(line('total sampled', split.sampledMicros))
  const gap = split.sampledMicros - split.measuredMicros
  lines.push(`  the serving thread's CPU per request over the profiled run: ${split.measuredMicros.toFixed(1)} µs; the split's total is ${Math.abs(gap).toFixed(1)} µs (${(100 * Math.abs(gap) / split.measuredMicros).toFixed(0)} %) ${gap >= 0 ? 'above' : 'below'} it`)
  lines.push(`  without the profiler: ${split.unprofiledMicros.toFixed(1)} µs per request, so sampling adds ${(split.measuredMicros - split.unprofiledMicros).toFixed(1)} µs`)
  if (split.missing.length > 0) lines.push(`  NO SAMPLE for: ${split.missing.join('; ')} (renamed entry functions? see scripts/bench/stage-split.ts)`)
  return lines
}
