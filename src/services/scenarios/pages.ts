// Read models of the scenario pages: the set's list with each scenario's latest result in words, and one scenario
// with its expected and actual outcome side by side, the trace of its run on the rule trees (as the debugger paints
// them) and its run history.
import type { Actor, Deps } from '../context.ts'
import { canWriteOwned } from '../accounts/visibility.ts'
import { paintedTrees } from '../authoring/rule-debug-page.ts'
import { tracedRun } from '../authoring/rules.ts'
import { notGivenViews } from '../authoring/not-given-view.ts'
import { runMomentOf } from './fields.ts'
import { fieldsFor, scenarioFormModel, shownAnswer, textOfValue, valueTag, type ScenarioFormModel } from './form.ts'
import { FOCUS_COMPLETE, type ExpectedOutcome, type ScenarioDifferences } from './outcome.ts'
import { compileSource, pinnedMap, runSources, sourceLabel, type CompiledSource } from './runs.ts'
import { getScenario, getScenarioRun, listSetScenarios, scenarioRunHistory, type ScenarioItem } from './scenarios.ts'

/** How a node of the scenario's set is named on the pages. */
export interface NodeLabels {
  advice(id: string): string
  focus(id: string): string
  /** A checked value's name as written: {{Variable}} or [[Formula]]. */
  value(name: string): string
}

export function nodeLabels(form: ScenarioFormModel): NodeLabels {
  const advice = new Map(form.adviceNodes.map((n) => [n.id, n.label]))
  const questions = new Map(form.questions.map((n) => [n.id, n.label]))
  return {
    advice: (id) => advice.get(id) ?? `Node ${id} (not in the draft)`,
    focus: (id) => id === FOCUS_COMPLETE ? 'Complete: nothing left to ask' : questions.get(id) ?? `Question ${id} (not in the draft)`,
    value: (name) => valueTag(form.scope.compiled, name),
  }
}

/** What differed, one line each, as the list and the show page word it. */
export function differenceLines(d: ScenarioDifferences, labels: NodeLabels): string[] {
  return [
    ...d.missingAdvice.map((id) => `Missing advice: ${labels.advice(id)}`),
    ...d.unexpectedAdvice.map((id) => `Unexpected advice: ${labels.advice(id)}`),
    ...(d.focus ? [`Focus: expected ${labels.focus(d.focus.expected)}, got ${labels.focus(d.focus.actual)}`] : []),
    ...d.variables.map((v) => `${labels.value(v.name)}: expected ${textOfValue(v.expected) || 'no value'}, got ${textOfValue(v.actual) || 'no value'}`),
  ]
}

function resultLines(item: ScenarioItem, labels: NodeLabels): string[] {
  const last = item.lastRun
  if (!last) return []
  if (last.errorMessage) return [last.errorMessage]
  return last.differences ? differenceLines(last.differences, labels) : []
}

/** advicescenario/index: the set's scenarios (or only the failing ones) with status, latest run and what differed. */
export async function scenarioIndexModel(deps: Deps, actor: Actor, adviceSetId: number, opts: { failingOnly: boolean }) {
  const [form, items, sources] = await Promise.all([
    scenarioFormModel(deps, actor, adviceSetId), listSetScenarios(deps, actor, adviceSetId), runSources(deps, actor, adviceSetId),
  ])
  const labels = nodeLabels(form)
  const failing = (s: ScenarioItem) => s.status === 'fail' || s.status === 'error'
  const counts = { total: items.length, pass: 0, fail: 0, error: 0, notRun: 0 }
  for (const item of items) counts[item.status] += 1
  return {
    set: form.scope.set,
    canWrite: form.canWrite,
    counts,
    failingOnly: opts.failingOnly,
    sources,
    scenarios: items.filter((s) => !opts.failingOnly || failing(s)).map((s) => ({ ...s, resultLines: resultLines(s, labels) })),
  }
}

export interface ComparisonRow { label: string; expected: string; actual: string | null; differs: boolean }

/** Expected and actual side by side: each advice item either mentions, the focus, each expected variable. */
function comparison(labels: NodeLabels, expected: ExpectedOutcome, run: { actual: { advice: string[]; focus: string; variables: Record<string, unknown> } | null; differences: ScenarioDifferences | null } | null) {
  const actual = run?.actual ?? null
  const d = run?.differences ?? null
  const adviceIds = [...new Set([...expected.advice, ...(actual?.advice ?? [])])]
  const shows = (on: boolean) => on ? 'Shown' : 'Not shown'
  const advice: ComparisonRow[] = adviceIds.map((id) => ({
    label: labels.advice(id), expected: shows(expected.advice.includes(id)), actual: actual ? shows(actual.advice.includes(id)) : null,
    differs: d !== null && (d.missingAdvice.includes(id) || d.unexpectedAdvice.includes(id)),
  }))
  const focus: ComparisonRow = {
    label: 'Final focus', expected: labels.focus(expected.focus), actual: actual ? labels.focus(actual.focus) : null, differs: d?.focus != null,
  }
  const variables: ComparisonRow[] = Object.entries(expected.variables).map(([name, value]) => ({
    label: labels.value(name), expected: textOfValue(value) || 'no value', actual: actual ? textOfValue(actual.variables[name]) || 'no value' : null,
    differs: d?.variables.some((v) => v.name === name) ?? false,
  }))
  return { advice, focus, variables }
}

/** One scenario: its answers, expected against the shown run's actual outcome, the trace, and its runs. */
export async function scenarioShowModel(deps: Deps, actor: Actor, scenarioId: number, opts: { runId?: number } = {}) {
  const item = await getScenario(deps, actor, scenarioId)
  const [form, history, sources] = await Promise.all([
    scenarioFormModel(deps, actor, item.adviceSetId), scenarioRunHistory(deps, actor, item.id, 50), runSources(deps, actor, item.adviceSetId),
  ])
  const run = opts.runId !== undefined ? await getScenarioRun(deps, actor, item.id, opts.runId) : history[0] ?? null
  const labels = nodeLabels(form)
  // The trace is of the shown run's source as it is now: a version never changes, the draft may have since.
  const draft: CompiledSource = { versionId: null, versionNumber: null, label: sourceLabel(null), model: form.scope.model, compiled: form.scope.compiled }
  const source = run?.versionId ? await compileSource(deps.db, form.scope.set, run.versionId) : draft
  const pinned = pinnedMap(item.pinnedResponses)
  const missing = run?.differences?.missingAdvice ?? []
  const traced = await tracedRun(deps, form.scope.set.ownerId, source.model, source.compiled, {
    inputs: item.inputs, now: item.runAsOf ? runMomentOf(item.runAsOf) : new Date(), ...(pinned ? { pinned } : {}),
    ...(missing.length > 0 ? { whyNot: { nearestFor: missing, nearestLimit: 0, only: missing } } : {}),
  })
  const debugRun = (answers: Record<string, string>) =>
    `/adviceset/${form.scope.set.id}/rule/debug?${new URLSearchParams([...Object.entries(answers).map(([name, text]) => [`input.${name}`, text]), ['run', '1']]).toString()}`
  const fields = fieldsFor(form, item.inputs)
  return {
    item,
    set: form.scope.set,
    canWrite: canWriteOwned(actor, form.scope.set.ownerId),
    inputs: fields.filter((f) => item.inputs[f.variable] !== undefined).map((f) => ({ variable: f.variable, label: f.label, value: shownAnswer(form.scope.compiled, f.variable, item.inputs[f.variable]) })),
    /** Each external API the set calls: the scenario's pinned answer for it, or null (its runs call it live). */
    apis: form.apis.map((api) => {
      const pin = item.pinnedResponses[api.apiId]
      return { ...api, pinned: pin ? { status: pin.status, body: JSON.stringify(pin.body).slice(0, 300) } : null }
    }),
    run,
    resultLines: run ? run.errorMessage ? [run.errorMessage] : run.differences ? differenceLines(run.differences, labels) : [] : [],
    /** Why each missing advice was not given, by the run traced here (the debugger's "Advice not given"). */
    whyMissing: notGivenViews(traced.notGiven ?? [], { run: debugRun })
      .map((entry) => ({ ...entry, headline: labels.advice(entry.nodeId) })),
    comparison: comparison(labels, item.expected, run),
    errors: run?.actual?.errors ?? [],
    traceSource: source.label,
    tree: paintedTrees({ ...form.scope, model: source.model, compiled: source.compiled }, traced),
    history,
    sources,
  }
}
