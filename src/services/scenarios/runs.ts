// Running scenarios. A batch compiles its source once (the working draft as stored, or a version's snapshot), runs
// each scenario with evaluate() (no trace, no rendering: a decision needs neither), compares with the expected
// outcome and stores one run row per scenario. Work goes in slices that yield to the event loop, so a large batch
// never holds the server up; the same loop serves a request that waits for it and the run-all job (run-all-job.ts).
// A set with API Call nodes runs through the external API runtime: a scenario's pinned responses answer their APIs,
// and calls of APIs it does not pin go out live (cached for the definition's cache time), as in the debugger.
import type { Db } from '../../db/client.ts'
import type { AdviceSetRow } from '../../db/queries/advice-sets.ts'
import { findScenariosOfSet, insertRuns, type RunInsert, type ScenarioRow } from '../../db/queries/scenarios.ts'
import { findVersion, listVersions } from '../../db/queries/versions.ts'
import { compileAdviceSet, evaluate, type AdviceSetModel, type CompiledAdviceSet, type EngineResult, type EvaluateOptions } from '../../engine/index.ts'
import type { PinnedApiResponse } from '../../db/schema/index.ts'
import { buildAdviceSetModel } from '../authoring/advice-set-model.ts'
import type { Actor, Deps } from '../context.ts'
import { canCollaborateOnSet } from '../accounts/visibility.ts'
import { NotFoundError, ValidationError } from '../errors.ts'
import type { VersionSnapshot } from '../publishing/snapshot.ts'
import { apiIdsOf, runSetWithApis, type PinnedResponse } from '../integrations/api-runtime.ts'
import { readableSetOf, writableSetOf } from './access.ts'
import { inputProblem, parseInputs, parseRunAsOf, runMomentOf } from './fields.ts'
import { yieldToEventLoop } from '../operations/event-loop.ts'
import {
  actualOutcome, compareOutcomes, expectedFromRun, hasDifferences,
  type ActualOutcome, type ScenarioDifferences, type ScenarioRunStatus,
} from './outcome.ts'

/** The working draft, or a version of the set by id. */
export type RunSource = 'draft' | number

/** A source compiled once for a whole batch. */
export interface CompiledSource {
  versionId: number | null
  versionNumber: number | null
  /** "Draft" or "Version N". */
  label: string
  model: AdviceSetModel
  compiled: CompiledAdviceSet
}

export function sourceLabel(versionNumber: number | null): string {
  return versionNumber === null ? 'Draft' : `Version ${versionNumber}`
}

/** `source` as a body or form sends it: 'draft' (or nothing), or a version id. */
export function parseRunSource(raw: unknown): RunSource {
  if (raw === undefined || raw === null || raw === '' || raw === 'draft') return 'draft'
  const id = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN
  if (!Number.isSafeInteger(id) || id < 1) throw new ValidationError('source', "source: must be 'draft' or the id of a version of this advice set.")
  return id
}

export async function compileSource(db: Db, set: Pick<AdviceSetRow, 'id'>, source: RunSource): Promise<CompiledSource> {
  if (source === 'draft') {
    const model = await buildAdviceSetModel(db, set.id)
    return { versionId: null, versionNumber: null, label: sourceLabel(null), model, compiled: compileAdviceSet(model) }
  }
  const version = await findVersion(db, source)
  if (!version || version.adviceSetId !== set.id) throw new ValidationError('source', `source: there is no version ${source} of this advice set.`)
  const { model } = version.snapshot as VersionSnapshot
  return { versionId: version.id, versionNumber: version.number, label: sourceLabel(version.number), model, compiled: compileAdviceSet(model) }
}

/** What one run of one scenario gave. */
export interface ScenarioOutcome {
  status: ScenarioRunStatus
  differences: ScenarioDifferences | null
  actual: ActualOutcome | null
  errorMessage: string | null
  /** The engine's result (with the trace when asked for); absent when the scenario could not run. */
  result?: EngineResult
}

/** The parts of a scenario a run reads. */
export type RunnableScenario = Pick<ScenarioRow, 'inputs' | 'runAsOf' | 'expected'> & { pinnedResponses?: Record<string, PinnedApiResponse> }

function errorOutcome(message: string): ScenarioOutcome {
  return { status: 'error', differences: null, actual: null, errorMessage: message }
}

/** Why the scenario's answers cannot run on this set (the first answer that no longer fits), or null. */
function answersProblem(compiled: CompiledAdviceSet, inputs: Record<string, unknown>): string | null {
  for (const name in inputs) {
    const problem = inputProblem(compiled, name, inputs[name])
    if (problem) return problem
  }
  return null
}

/** The moment a scenario runs at: its "run as of" day, or the batch's. */
export function scenarioMoment(scenario: Pick<ScenarioRow, 'runAsOf'>, now: Date): Date {
  return scenario.runAsOf ? runMomentOf(scenario.runAsOf) : now
}

function engineOptions(scenario: Pick<ScenarioRow, 'runAsOf'>, opts: { now: Date; trace?: boolean }): EvaluateOptions {
  return { render: false, trace: opts.trace === true, now: scenarioMoment(scenario, opts.now) }
}

/** Pass or fail by comparing what the run gave with what the scenario expects; error when an answer was refused. */
function outcomeOf(scenario: RunnableScenario, result: EngineResult): ScenarioOutcome {
  const focusError = result.currentFocus?.error
  if (focusError) return { ...errorOutcome(`The answer for {{${result.currentFocus!.variable}}} cannot be used: ${focusError.message}`), result }
  const actual = actualOutcome(result, Object.keys(scenario.expected.variables))
  const differences = compareOutcomes(scenario.expected, actual)
  return { status: hasDifferences(differences) ? 'fail' : 'pass', differences, actual, errorMessage: null, result }
}

/**
 * Runs one scenario on a compiled set without external APIs (their calls stay pending: their rules are incomplete
 * advice): an answer that no longer fits the set (unknown variable, wrong type, an option that is gone) or a run that
 * cannot finish is status error with the reason; otherwise pass or fail by comparison. `now` is the moment of a
 * scenario without a "run as of" date.
 */
export function runScenario(compiled: CompiledAdviceSet, scenario: RunnableScenario, opts: { now: Date; trace?: boolean }): ScenarioOutcome {
  const problem = answersProblem(compiled, scenario.inputs)
  if (problem) return errorOutcome(problem)
  let result: EngineResult
  try {
    result = evaluate(compiled, scenario.inputs, engineOptions(scenario, opts))
  } catch (error) {
    return errorOutcome(`The run failed: ${error instanceof Error ? error.message : String(error)}`)
  }
  return outcomeOf(scenario, result)
}

/** Pinned responses as the API runtime takes them: the body as the JSON text the API would have sent. */
export function pinnedMap(pinned: Record<string, PinnedApiResponse> | undefined): ReadonlyMap<string, PinnedResponse> | undefined {
  if (!pinned || Object.keys(pinned).length === 0) return undefined
  return new Map(Object.entries(pinned).map(([apiId, pin]) => [apiId, { status: pin.status, body: JSON.stringify(pin.body ?? null) }]))
}

/**
 * Answers on a compiled set of `ownerId`, with its external APIs when it calls any: what every scenario-shaped run
 * (runs, previews, the tree builder, the review gate) goes through.
 */
export async function runAnswers(deps: Deps, ownerId: string, compiled: CompiledAdviceSet, scenario: Pick<RunnableScenario, 'inputs' | 'runAsOf' | 'pinnedResponses'>, opts: { now: Date; trace?: boolean }): Promise<EngineResult> {
  const options = engineOptions(scenario, opts)
  if (apiIdsOf(compiled).length === 0) return evaluate(compiled, scenario.inputs, options)
  const pinned = pinnedMap(scenario.pinnedResponses)
  return (await runSetWithApis(deps, { ownerId, compiled, inputs: scenario.inputs, options, ...(pinned ? { pinned } : {}) })).result
}

/** runScenario for a set that may call external APIs: synchronous (no I/O) when it calls none. */
export async function runScenarioWithApis(deps: Deps, ownerId: string, compiled: CompiledAdviceSet, scenario: RunnableScenario, opts: { now: Date; trace?: boolean }): Promise<ScenarioOutcome> {
  if (apiIdsOf(compiled).length === 0) return runScenario(compiled, scenario, opts)
  const problem = answersProblem(compiled, scenario.inputs)
  if (problem) return errorOutcome(problem)
  try {
    return outcomeOf(scenario, await runAnswers(deps, ownerId, compiled, scenario, opts))
  } catch (error) {
    return errorOutcome(`The run failed: ${error instanceof Error ? error.message : String(error)}`)
  }
}

// Batches -------------------------------------------------------------------------------------------------------------

export interface RunRequest {
  adviceSetId: number
  /** One, several or (undefined) all live scenarios of the set. */
  scenarioIds?: number[]
  source: RunSource
}

/** A batch ready to go: the set, its source compiled once, the scenarios in id order and the batch's moment. */
export interface RunPlan {
  set: AdviceSetRow
  source: CompiledSource
  scenarios: ScenarioRow[]
  now: Date
}

/** Checks rights (running stores results: writers only) and that every scenario asked for is in the set. */
export async function planRun(deps: Deps, actor: Actor, request: RunRequest): Promise<RunPlan> {
  const set = await writableSetOf(deps.db, actor, request.adviceSetId)
  const ids = request.scenarioIds === undefined ? undefined : [...new Set(request.scenarioIds)]
  const scenarios = await findScenariosOfSet(deps.db, set.id, ids)
  if (ids && scenarios.length < ids.length) {
    const missing = ids.find((id) => !scenarios.some((s) => s.id === id))
    throw new NotFoundError(`No advice scenario ${missing} in this advice set`)
  }
  return { set, source: await compileSource(deps.db, set, request.source), scenarios, now: new Date() }
}

export interface ScenarioRunSummary {
  scenarioId: number
  name: string
  runId: number
  status: ScenarioRunStatus
  differences: ScenarioDifferences | null
  actual: ActualOutcome | null
  errorMessage: string | null
}

export interface RunCounts { pass: number; fail: number; error: number }

export interface BatchResult {
  source: { versionId: number | null; label: string }
  ranAt: Date
  results: ScenarioRunSummary[]
  counts: RunCounts
  /** Set when the batch was cancelled before the end: the scenarios not run are not in `results`. */
  cancelled: boolean
}

export interface BatchOptions {
  /** Most time (ms) spent running before the slice's rows are stored and the event loop gets a turn. */
  sliceMs?: number
  /** Rows are not stored (benchmarks of the evaluation alone, previews). */
  store?: boolean
  /** Awaited: a job's progress report may throw to stop the batch (cancelled). */
  onProgress?(done: number, total: number, counts: Readonly<RunCounts>): void | Promise<void>
  isCancelled?(): boolean
}

const DEFAULT_SLICE_MS = 20

export function runInsertOf(actor: Actor | null, source: CompiledSource, scenario: Pick<ScenarioRow, 'id'>, outcome: ScenarioOutcome): RunInsert {
  return {
    scenarioId: scenario.id, userId: actor?.userId ?? null, versionId: source.versionId, status: outcome.status,
    differences: outcome.differences, actual: outcome.actual, errorMessage: outcome.errorMessage,
  }
}

/** Runs a plan slice by slice, storing each slice's rows in one statement before yielding. */
export async function executePlan(deps: Deps, actor: Actor | null, plan: RunPlan, opts: BatchOptions = {}): Promise<BatchResult> {
  const sliceMs = opts.sliceMs ?? DEFAULT_SLICE_MS
  const results: ScenarioRunSummary[] = []
  const counts: RunCounts = { pass: 0, fail: 0, error: 0 }
  const total = plan.scenarios.length
  let next = 0
  let cancelled = false
  await opts.onProgress?.(0, total, counts)
  while (next < total) {
    if (opts.isCancelled?.()) {
      cancelled = true
      break
    }
    const started = performance.now()
    const slice: Array<{ scenario: ScenarioRow; outcome: ScenarioOutcome }> = []
    const callsApis = apiIdsOf(plan.source.compiled).length > 0
    do {
      const scenario = plan.scenarios[next++]!
      const outcome = callsApis
        ? await runScenarioWithApis(deps, plan.set.ownerId, plan.source.compiled, scenario, { now: plan.now })
        : runScenario(plan.source.compiled, scenario, { now: plan.now })
      slice.push({ scenario, outcome })
    } while (next < total && performance.now() - started < sliceMs)
    const rows = opts.store === false ? [] : await insertRuns(deps.db, slice.map(({ scenario, outcome }) => runInsertOf(actor, plan.source, scenario, outcome)))
    slice.forEach(({ scenario, outcome }, i) => {
      counts[outcome.status] += 1
      results.push({
        scenarioId: scenario.id, name: scenario.name, runId: rows[i]?.id ?? 0, status: outcome.status,
        differences: outcome.differences, actual: outcome.actual, errorMessage: outcome.errorMessage,
      })
    })
    await opts.onProgress?.(results.length, total, counts)
    if (next < total) await yieldToEventLoop()
  }
  return { source: { versionId: plan.source.versionId, label: plan.source.label }, ranAt: plan.now, results, counts, cancelled }
}

/** Runs one, several or all scenarios of a set against the draft or a version, stores a run row for each. */
export async function runScenarios(deps: Deps, actor: Actor, request: RunRequest): Promise<BatchResult> {
  return executePlan(deps, actor, await planRun(deps, actor, request))
}

// Runs that store nothing ---------------------------------------------------------------------------------------------

/**
 * A run of answers on the working draft, for filling an expected outcome (the scenario form's "Fill expected from a
 * run", "Save as scenario" from the debugger). Readers may do it: nothing is stored. Bad answers are refused by field.
 */
export async function previewRun(deps: Deps, actor: Actor, input: {
  adviceSetId: number; inputs?: unknown; runAsOf?: unknown; variables?: string[]; pinnedResponses?: Record<string, PinnedApiResponse>
}) {
  const set = await readableSetOf(deps.db, actor, input.adviceSetId)
  const source = await compileSource(deps.db, set, 'draft')
  const inputs = parseInputs(input.inputs, source.compiled)
  const runAsOf = parseRunAsOf(input.runAsOf)
  const result = await runAnswers(deps, set.ownerId, source.compiled, { inputs, runAsOf, pinnedResponses: input.pinnedResponses ?? {} }, { now: new Date() })
  return { set, source, inputs, runAsOf, expected: expectedFromRun(result, { variables: input.variables ?? [] }), result }
}

/** Where a set's scenarios can run: the draft, then (for its owner's team) its versions, newest first. */
export async function runSources(deps: Deps, actor: Actor, adviceSetId: number) {
  const set = await readableSetOf(deps.db, actor, adviceSetId)
  const versions = canCollaborateOnSet(actor, set) ? await listVersions(deps.db, set.id) : []
  return [
    { value: 'draft', label: sourceLabel(null) },
    ...versions.map((v) => ({ value: String(v.id), label: `${sourceLabel(v.number)} (${v.state})` })),
  ]
}

