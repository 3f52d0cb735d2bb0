// The review gate (issue 14 part 7, DESIGN "Testing advice"): before a version is approved its reviewer sees every
// scenario's result on this version and on the published one (changed outcomes first) and the static checks' problems
// of the version's model; coverage by generated branches is review-coverage.ts. Approving over failing scenarios
// (fail or error) or error-level static problems needs an explicit confirmation (workflow.ts), recorded with the
// approval in the version's history.
//
// Decision: the gate runs the scenarios without storing runs (executePlan with store: false). Looking at a version
// must not change what the scenario list says about the working draft; "Run" on a scenario page against a version
// stores a run as before.
import type { AdviceSetRow } from '../../db/queries/advice-sets.ts'
import { findScenariosOfSet } from '../../db/queries/scenarios.ts'
import { findVersion, findVersionInState, type VersionRow } from '../../db/queries/versions.ts'
import { adviceText, staticChecks, type AdviceEdit, type CompiledAdviceSet } from '../../engine/index.ts'
import type { Actor, Deps } from '../context.ts'
import { FOCUS_COMPLETE, type ScenarioDifferences, type ScenarioRunStatus } from '../scenarios/outcome.ts'
import { valueTag } from '../scenarios/form.ts'
import { differenceLines, type NodeLabels } from '../scenarios/pages.ts'
import { compileSource, executePlan, type BatchResult, type CompiledSource, type ScenarioRunSummary } from '../scenarios/runs.ts'
import { NotFoundError } from '../errors.ts'
import { versionErrorBranches } from './review-coverage.ts'
import { teamSet } from './versions.ts'
import { gateReplay, replayReview, type GateReplay, type ReplayReview } from './replay-gate.ts'

/** The most static problems listed by message (all are counted). */
const LISTED_ISSUES = 25

/** How advice and questions of a version are named: by their headline or question, as the version has them. */
export function versionLabels(compiled: CompiledAdviceSet): NodeLabels {
  const model = (id: string) => compiled.nodeById.get(id)?.model
  return {
    advice: (id) => (model(id)?.headline || model(id)?.text || '').trim() || `Advice ${id}`,
    focus: (id) => id === FOCUS_COMPLETE ? 'Complete: nothing left to ask' : (model(id)?.question || model(id)?.variable || '').trim() || `Question ${id}`,
    value: (name) => valueTag(compiled, name),
  }
}

export interface ScenarioResultView { status: ScenarioRunStatus; lines: string[]; advice: string[]; focus: string | null }

export interface GateScenarioRow {
  scenarioId: number
  name: string
  href: string
  onVersion: ScenarioResultView
  /** On the published version; null when nothing else is published. */
  onPublished: ScenarioResultView | null
  /** Its outcome on this version differs from the one on the published version (advice, focus, or an advice's text). */
  changed: boolean
  /** Advice both versions give it whose headline or text was edited, before (published) and after (this version). */
  editedAdvice: AdviceEdit[]
}

export interface StaticCheckSummary {
  errors: number
  warnings: number
  /** Errors first, then warnings, each with the rule it is in. */
  issues: Array<{ severity: 'error' | 'warning'; rule: string | null; message: string }>
}

/** What decides whether approving needs a confirmation, as the approval records it. */
export interface ApprovalReview {
  scenarios: { total: number; pass: number; fail: number; error: number }
  staticErrors: number
  staticWarnings: number
  /** Generated branches that only end in an error; null when the version is too large to generate while waiting. */
  errorBranches: number | null
  /** Recorded answers of the published version replayed on this one; null when nothing else is published. */
  replay: ReplayReview | null
  /** Failing scenarios (fail or error), error-level static problems or branches that end in an error. */
  risky: boolean
  /** The risks in words: "1 failing scenario and 2 static errors"; '' when there are none. */
  risks: string
}

function resultView(result: ScenarioRunSummary, labels: NodeLabels): ScenarioResultView {
  return {
    status: result.status,
    lines: result.errorMessage ? [result.errorMessage] : result.differences ? differenceLines(result.differences as ScenarioDifferences, labels) : [],
    advice: result.actual?.advice.map((id) => labels.advice(id)) ?? [],
    focus: result.actual ? labels.focus(result.actual.focus) : null,
  }
}

/** Advice that both runs gave whose headline or text differs between the two versions (node ids stay across versions). */
function editedAdvice(result: ScenarioRunSummary, previous: ScenarioRunSummary, compiled: CompiledAdviceSet, publishedCompiled: CompiledAdviceSet): AdviceEdit[] {
  if (!result.actual || !previous.actual) return []
  const givenBefore = new Set(previous.actual.advice)
  return result.actual.advice.filter((id) => givenBefore.has(id)).flatMap((nodeId) => {
    const now = compiled.nodeById.get(nodeId)?.model
    const was = publishedCompiled.nodeById.get(nodeId)?.model
    if (!now || !was) return []
    const before = adviceText(was)
    const after = adviceText(now)
    return before.headline === after.headline && before.text === after.text ? [] : [{ nodeId, before, after }]
  })
}

function sameOutcome(a: ScenarioRunSummary, b: ScenarioRunSummary): boolean {
  if (a.status !== b.status) return false
  if (a.actual === null || b.actual === null) return a.actual === b.actual && a.errorMessage === b.errorMessage
  return a.actual.focus === b.actual.focus && [...a.actual.advice].sort().join() === [...b.actual.advice].sort().join()
}

/** Every live scenario of the set run on `source`, nothing stored. */
async function runOn(deps: Deps, set: AdviceSetRow, source: CompiledSource, now: Date): Promise<BatchResult> {
  const scenarios = await findScenariosOfSet(deps.db, set.id)
  return executePlan(deps, null, { set, source, scenarios, now }, { store: false })
}

function checksOf(source: CompiledSource): StaticCheckSummary {
  const issues = staticChecks(source.model, source.compiled)
  const rules = new Map([...source.model.rules, ...(source.model.externalRules ?? [])].map((r) => [r.id, r.name]))
  const ordered = [...issues.filter((i) => i.severity === 'error'), ...issues.filter((i) => i.severity === 'warning')]
  return {
    errors: issues.filter((i) => i.severity === 'error').length,
    warnings: issues.filter((i) => i.severity === 'warning').length,
    issues: ordered.slice(0, LISTED_ISSUES).map((i) => ({ severity: i.severity, rule: i.ruleId === null ? null : rules.get(i.ruleId) ?? null, message: i.message })),
  }
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

function reviewOf(batch: BatchResult, checks: StaticCheckSummary, errorBranches: number | null, replay: ReplayReview | null): ApprovalReview {
  const failing = batch.counts.fail + batch.counts.error
  const changed = replay?.changed ?? 0
  const risks = [
    ...(failing ? [plural(failing, 'failing scenario')] : []),
    ...(checks.errors ? [plural(checks.errors, 'static error')] : []),
    ...(errorBranches ? [plural(errorBranches, 'branch that ends in an error', 'branches that end in an error')] : []),
    ...(changed ? [`${plural(changed, 'recorded answer')} of ${replay!.replayed} replayed whose outcome changes`] : []),
  ].join(' and ')
  return {
    scenarios: { total: batch.results.length, ...batch.counts }, staticErrors: checks.errors, staticWarnings: checks.warnings, errorBranches, replay,
    risky: failing > 0 || checks.errors > 0 || (errorBranches ?? 0) > 0 || changed > 0, risks,
  }
}

/** What approving `version` risks: its scenarios' results, its static errors and error branches (run now, nothing stored). */
export async function approvalReview(deps: Deps, actor: Actor, set: AdviceSetRow, version: Pick<VersionRow, 'id'>): Promise<ApprovalReview> {
  const source = await compileSource(deps.db, set, version.id)
  const [batch, errorBranches, replay] = await Promise.all([
    runOn(deps, set, source, new Date()), versionErrorBranches(deps, actor, set, version.id), gateReplay(deps, set, source),
  ])
  return reviewOf(batch, checksOf(source), errorBranches, replayReview(replay))
}

export interface ReviewGateView {
  version: { id: number; number: number }
  published: { id: number; number: number } | null
  scenarios: GateScenarioRow[]
  changed: number
  checks: StaticCheckSummary
  review: ApprovalReview
  /** The published version's recorded answers replayed on this one (null when nothing else is published). */
  replay: GateReplay | null
}

/** The version page's gate: scenario results on this version and on the published one (changed first), static checks. */
export async function reviewGate(deps: Deps, actor: Actor, adviceSetId: number, versionId: number): Promise<ReviewGateView> {
  const set = await teamSet(deps.db, actor, adviceSetId)
  const version = await findVersion(deps.db, versionId)
  if (!version || version.adviceSetId !== set.id) throw new NotFoundError('No version with this id in this advice set')
  const now = new Date()
  const source = await compileSource(deps.db, set, version.id)
  const published = await findVersionInState(deps.db, set.id, 'published')
  const other = published && published.id !== version.id ? await compileSource(deps.db, set, published.id) : null
  const [onVersion, onPublished, replay] = await Promise.all([
    runOn(deps, set, source, now), other ? runOn(deps, set, other, now) : null, gateReplay(deps, set, source, published ?? null),
  ])
  const labels = versionLabels(source.compiled)
  const publishedLabels = other ? versionLabels(other.compiled) : labels
  const before = new Map((onPublished?.results ?? []).map((r) => [r.scenarioId, r]))
  const rows = onVersion.results.map((result): GateScenarioRow => {
    const previous = before.get(result.scenarioId)
    const edits = previous && other ? editedAdvice(result, previous, source.compiled, other.compiled) : []
    return {
      scenarioId: result.scenarioId, name: result.name, href: `/adviceset/${set.id}/advicescenario/${result.scenarioId}/show`,
      onVersion: resultView(result, labels),
      onPublished: previous ? resultView(previous, publishedLabels) : null,
      changed: previous !== undefined && (!sameOutcome(result, previous) || edits.length > 0),
      editedAdvice: edits,
    }
  })
  const failing = (r: GateScenarioRow) => r.onVersion.status !== 'pass'
  rows.sort((a, b) => Number(b.changed) - Number(a.changed) || Number(failing(b)) - Number(failing(a)) || a.name.localeCompare(b.name))
  const checks = checksOf(source)
  return {
    version: { id: version.id, number: version.number },
    published: other && published ? { id: published.id, number: published.number } : null,
    scenarios: rows, changed: rows.filter((r) => r.changed).length, checks,
    review: reviewOf(onVersion, checks, await versionErrorBranches(deps, actor, set, version.id), replayReview(replay)), replay,
  }
}
