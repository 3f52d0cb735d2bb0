// The tree builder (issue 14 part 5, page tree-builder): a set's scenarios as a tree of shared answers. Each scenario
// runs on the working draft; the questions it answered, in the order the engine asked them, are its path from the
// root, so scenarios that answer alike share a trunk and part where an answer differs. A leaf is a scenario with its
// status (its latest stored run) and the outcome the draft gives it now; a question whose answers lead to different
// outcomes is marked as a split. Forking takes one scenario's answers, changes the answer to one question of its
// path, and shows the draft's outcome for the forked answers before saving them as a new scenario.
import type { Actor, Deps } from '../context.ts'
import { ValidationError } from '../errors.ts'
import type { EngineResult } from '../../engine/index.ts'
import { canWriteOwned } from '../accounts/visibility.ts'
import { answerOf, answerText, fieldsFor, scenarioFormModel, shownAnswer, textOfValue, type ScenarioField, type ScenarioFormModel } from './form.ts'
import { actualOutcome, compareOutcomes, hasDifferences, rawValue, type ExpectedOutcome } from './outcome.ts'
import { nodeLabels, type NodeLabels } from './pages.ts'
import { previewRun, runAnswers } from './runs.ts'
import { createScenario, getScenario, listSetScenarios, type ScenarioItem, type ScenarioStatus } from './scenarios.ts'

/** One answered question on a scenario's path. */
export interface PathStep {
  variable: string
  label: string
  /** The answer as the run formatted it; "No answer" for the question a run stops at. */
  valueText: string
  /** Identity of the answer: the coerced value as JSON (so 70 and "70" are one answer), or OPEN_KEY. */
  key: string
  /** True for the question the run stopped at (not answered). */
  open: boolean
}

export interface TreeLeaf {
  scenarioId: number
  name: string
  status: ScenarioStatus
  /** The draft's outcome now: advice items by label, and where the run ends. */
  advice: string[]
  focus: string
  /** Advice node ids and focus, sorted: scenarios with equal keys end alike. */
  outcomeKey: string
  /** The draft now gives another outcome than the scenario expects. */
  differsFromExpected: boolean
  /** Answers to variables no question on its path asked (conditions may still read them). */
  otherAnswers: Array<{ variable: string; value: string }>
  /** Why the scenario could not run on the draft (an answer that no longer fits). */
  error: string | null
  path: PathStep[]
}

export interface TreeAnswer {
  /** Unique within the page, for anchors and aria. */
  id: string
  valueText: string
  key: string
  open: boolean
  scenarioCount: number
  outcomeCount: number
  questions: TreeQuestion[]
  leaves: TreeLeaf[]
}

export interface TreeQuestion {
  variable: string
  label: string
  answers: TreeAnswer[]
  scenarioCount: number
  outcomeCount: number
  /** Its answers lead to different outcomes: this is where outcomes split. */
  splits: boolean
}

export interface ScenarioTree {
  questions: TreeQuestion[]
  /** Scenarios that answered no question (or could not run). */
  leaves: TreeLeaf[]
  scenarioCount: number
  outcomeCount: number
}

/** What a run of a scenario on the draft says about its place in the tree. */
interface PlacedRun { leaf: TreeLeaf; result: EngineResult | null; actual: ExpectedOutcome | null }

const NO_ANSWER = 'No answer'
/**
 * The key of the question a run stops at. Not JSON, so no answer's key can equal it; printable, because keys are
 * written into the page (data-answer) and a page carries no control characters.
 */
const OPEN_KEY = 'open'

function questionLabel(form: ScenarioFormModel, variable: string): string {
  return form.fields.find((f) => f.variable === variable)?.label ?? `{{${variable}}}`
}

/** The path a run took: its answered questions in the order asked (each once), then the question it stopped at. */
function pathOf(form: ScenarioFormModel, result: EngineResult): PathStep[] {
  const steps: PathStep[] = []
  const seen = new Set<string>()
  for (const answer of result.inputRequests) {
    if (seen.has(answer.variable)) continue
    seen.add(answer.variable)
    steps.push({ variable: answer.variable, label: questionLabel(form, answer.variable), valueText: answer.valueFormatted, key: JSON.stringify(rawValue(answer.value)), open: false })
  }
  const focus = result.currentFocus
  if (focus && !seen.has(focus.variable)) {
    steps.push({ variable: focus.variable, label: questionLabel(form, focus.variable), valueText: NO_ANSWER, key: OPEN_KEY, open: true })
  }
  return steps
}

async function placeScenario(deps: Deps, form: ScenarioFormModel, labels: NodeLabels, item: ScenarioItem, now: Date): Promise<PlacedRun> {
  const base = { scenarioId: item.id, name: item.name, status: item.status }
  const failed = (message: string): PlacedRun => ({
    leaf: { ...base, advice: [], focus: '', outcomeKey: `error:${item.id}`, differsFromExpected: false, otherAnswers: [], error: message, path: [] },
    result: null, actual: null,
  })
  let result: EngineResult
  try {
    result = await runAnswers(deps, form.scope.set.ownerId, form.scope.compiled, item, { now })
  } catch (error) {
    return failed(`The run failed: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (result.currentFocus?.error) return failed(`The answer for {{${result.currentFocus.variable}}} cannot be used: ${result.currentFocus.error.message}`)
  const path = pathOf(form, result)
  const onPath = new Set(path.map((s) => s.variable))
  const actual = actualOutcome(result, Object.keys(item.expected.variables))
  return {
    leaf: {
      ...base,
      advice: actual.advice.map((id) => labels.advice(id)),
      focus: labels.focus(actual.focus),
      outcomeKey: `${[...actual.advice].sort().join(',')}|${actual.focus}`,
      differsFromExpected: hasDifferences(compareOutcomes(item.expected, actual)),
      otherAnswers: Object.entries(item.inputs).filter(([name]) => !onPath.has(name)).map(([variable, value]) => ({ variable, value: shownAnswer(form.scope.compiled, variable, value) })),
      error: null,
      path,
    },
    result, actual,
  }
}

interface Level { questions: Map<string, { label: string; answers: Map<string, { step: PathStep; level: Level }> }>; leaves: TreeLeaf[] }

const newLevel = (): Level => ({ questions: new Map(), leaves: [] })

function insert(root: Level, leaf: TreeLeaf): void {
  let level = root
  for (const step of leaf.path) {
    let question = level.questions.get(step.variable)
    if (!question) level.questions.set(step.variable, question = { label: step.label, answers: new Map() })
    let answer = question.answers.get(step.key)
    if (!answer) question.answers.set(step.key, answer = { step, level: newLevel() })
    level = answer.level
  }
  level.leaves.push(leaf)
}

function compareAnswers(a: PathStep, b: PathStep): number {
  if (a.open !== b.open) return a.open ? 1 : -1
  const x: unknown = JSON.parse(a.key)
  const y: unknown = JSON.parse(b.key)
  return typeof x === 'number' && typeof y === 'number' ? x - y : a.valueText.localeCompare(b.valueText)
}

/** Turns the trie into the view, counting scenarios and distinct outcomes below each node. */
function build(level: Level, prefix: string): { questions: TreeQuestion[]; outcomes: Set<string>; count: number } {
  const outcomes = new Set(level.leaves.map((l) => l.outcomeKey))
  let count = level.leaves.length
  const questions: TreeQuestion[] = []
  for (const [variable, q] of level.questions) {
    const qOutcomes = new Set<string>()
    const answerOutcomes: string[] = []
    let qCount = 0
    const answers = [...q.answers.values()].sort((a, b) => compareAnswers(a.step, b.step)).map(({ step, level: below }, i): TreeAnswer => {
      const id = `${prefix}-${questions.length}-${i}`
      const sub = build(below, id)
      for (const o of sub.outcomes) qOutcomes.add(o)
      answerOutcomes.push([...sub.outcomes].sort().join(';'))
      qCount += sub.count
      return { id, valueText: step.valueText, key: step.key, open: step.open, scenarioCount: sub.count, outcomeCount: sub.outcomes.size, questions: sub.questions, leaves: below.leaves }
    })
    for (const o of qOutcomes) outcomes.add(o)
    count += qCount
    questions.push({ variable, label: q.label, answers, scenarioCount: qCount, outcomeCount: qOutcomes.size, splits: new Set(answerOutcomes).size > 1 })
  }
  return { questions, outcomes, count }
}

/** The tree of the set's live scenarios on the working draft. */
export function scenarioTree(leaves: TreeLeaf[]): ScenarioTree {
  const root = newLevel()
  for (const leaf of leaves) insert(root, leaf)
  const built = build(root, 'n')
  return { questions: built.questions, leaves: root.leaves, scenarioCount: built.count, outcomeCount: built.outcomes.size }
}

// Forking ---------------------------------------------------------------------------------------------------------------

export interface ForkRequest {
  scenarioId: number
  /** The question (its variable) to fork at; the first of the scenario's path when left out. */
  variable?: string
  /** The new answer as the form's field gives it; no preview without it. */
  value?: string
  /** The new scenario's name; left out, one is proposed from the original's name and the new answer. */
  name?: string
}

export interface ForkPreview {
  inputs: Record<string, unknown>
  /** Answers of the original left out: the forked run no longer asks their questions. */
  dropped: string[]
  expected: ExpectedOutcome
  advice: string[]
  focus: string
  added: string[]
  removed: string[]
  focusChanged: boolean
  description: string
}

export interface ForkPanel {
  scenario: { id: number; name: string }
  steps: PathStep[]
  step: PathStep
  field: ScenarioField
  /** The answer the form shows: the one typed, or the scenario's own. */
  value: string
  name: string
  preview: ForkPreview | null
  canSave: boolean
}

function fieldOf(form: ScenarioFormModel, inputs: Record<string, unknown>, variable: string): ScenarioField {
  return fieldsFor(form, inputs).find((f) => f.variable === variable) ?? {
    variable, label: `{{${variable}}}`, control: 'text', dataType: null, options: [], nodeId: '', placeholder: '', description: '', extra: true,
  }
}

function forkDescription(original: string, step: PathStep, valueText: string): string {
  return `Forked from “${original}”: {{${step.variable}}} = ${valueText}${step.open ? ' (it had no answer)' : ` instead of ${step.valueText}`}.`
}

function sameExpected(a: ExpectedOutcome, b: ExpectedOutcome): boolean {
  return !hasDifferences(compareOutcomes(a, b))
}

/**
 * The forked answers' run on the draft. Answers to questions the forked run no longer asks are dropped when the
 * outcome stays the same without them (so the new scenario's path is what the engine asks), kept otherwise.
 */
async function forkPreview(deps: Deps, actor: Actor, form: ScenarioFormModel, original: PlacedRun, scenario: ScenarioItem, step: PathStep, text: string): Promise<ForkPreview> {
  const field = fieldOf(form, scenario.inputs, step.variable)
  const answer = answerOf(field, text)
  const valueText = textOfValue(answer)
  const ownText = step.open ? '' : answerText(field, scenario.inputs[step.variable])
  if (text.trim() === '') throw new ValidationError(`inputs.${step.variable}`, `inputs.${step.variable}: give the answer to fork with.`)
  if (!step.open && text.trim() === ownText.trim()) {
    throw new ValidationError(`inputs.${step.variable}`, `inputs.${step.variable}: ${step.valueText} is the scenario’s own answer; choose another to fork.`)
  }
  const run = (inputs: Record<string, unknown>) => previewRun(deps, actor, {
    adviceSetId: form.scope.set.id, inputs, runAsOf: scenario.runAsOf, variables: Object.keys(scenario.expected.variables), pinnedResponses: scenario.pinnedResponses,
  })
  let preview = await run({ ...scenario.inputs, [step.variable]: answer })
  const asked = new Set(preview.result.inputRequests.map((a) => a.variable))
  const questions = new Set(form.fields.map((f) => f.variable))
  const kept = Object.fromEntries(Object.entries(preview.inputs).filter(([name]) => asked.has(name) || !questions.has(name)))
  let dropped = Object.keys(preview.inputs).filter((name) => !(name in kept))
  if (dropped.length > 0) {
    const pruned = await run(kept)
    if (sameExpected(preview.expected, pruned.expected)) preview = pruned
    else dropped = []
  }
  const labels = nodeLabels(form)
  const before = new Set(original.actual?.advice ?? [])
  const after = new Set(preview.expected.advice)
  return {
    inputs: preview.inputs,
    dropped,
    expected: preview.expected,
    advice: preview.expected.advice.map((id) => labels.advice(id)),
    focus: labels.focus(preview.expected.focus),
    added: [...after].filter((id) => !before.has(id)).map((id) => labels.advice(id)),
    removed: [...before].filter((id) => !after.has(id)).map((id) => labels.advice(id)),
    focusChanged: original.actual !== null && original.actual.focus !== preview.expected.focus,
    description: forkDescription(scenario.name, step, valueText),
  }
}

async function forkPanel(deps: Deps, actor: Actor, form: ScenarioFormModel, placed: PlacedRun, scenario: ScenarioItem, request: ForkRequest): Promise<ForkPanel> {
  const steps = placed.leaf.path
  if (steps.length === 0) throw new ValidationError('fork', `fork: “${scenario.name}” answers no question of the draft, so there is nothing to fork at.`)
  const step = request.variable === undefined || request.variable === '' ? steps[0]! : steps.find((s) => s.variable === request.variable)
  if (!step) throw new ValidationError('question', `question: “${scenario.name}” does not ask {{${request.variable}}}; fork at one of its questions.`)
  const field = fieldOf(form, scenario.inputs, step.variable)
  const value = request.value ?? (step.open ? '' : answerText(field, scenario.inputs[step.variable]))
  const preview = request.value === undefined ? null : await forkPreview(deps, actor, form, placed, scenario, step, request.value)
  const fallbackName = `${scenario.name} · ${step.label.replace(/\s+/g, ' ')} = ${preview ? textOfValue(preview.inputs[step.variable]) : '…'}`
  return {
    scenario: { id: scenario.id, name: scenario.name }, steps, step, field, value,
    name: request.name === undefined ? fallbackName.slice(0, 200) : request.name,
    preview, canSave: canWriteOwned(actor, form.scope.set.ownerId),
  }
}

// Page models -----------------------------------------------------------------------------------------------------------

export interface TreeBuilderModel {
  form: ScenarioFormModel
  tree: ScenarioTree
  canWrite: boolean
  /** The fork panel, when one scenario is being forked. */
  fork: ForkPanel | null
}

/** The whole page: every scenario placed, and the fork panel when `fork` names one. */
export async function treeBuilderModel(deps: Deps, actor: Actor, adviceSetId: number, fork?: ForkRequest): Promise<TreeBuilderModel> {
  const [form, items] = await Promise.all([scenarioFormModel(deps, actor, adviceSetId), listSetScenarios(deps, actor, adviceSetId)])
  const labels = nodeLabels(form)
  const now = new Date()
  const placed = new Map<number, PlacedRun>()
  for (const item of items) placed.set(item.id, await placeScenario(deps, form, labels, item, now))
  const tree = scenarioTree([...placed.values()].map((p) => p.leaf))
  let panel: ForkPanel | null = null
  if (fork) {
    const scenario = items.find((s) => s.id === fork.scenarioId) ?? await getScenario(deps, actor, fork.scenarioId)
    if (scenario.adviceSetId !== form.scope.set.id) throw new ValidationError('fork', `fork: advice scenario ${fork.scenarioId} is not in this advice set.`)
    panel = await forkPanel(deps, actor, form, placed.get(scenario.id) ?? await placeScenario(deps, form, labels, scenario, now), scenario, fork)
  }
  return { form, tree, canWrite: form.canWrite, fork: panel }
}

/** Only the fork panel (the island's live preview): runs the one scenario, not the whole set. */
export async function forkPanelModel(deps: Deps, actor: Actor, adviceSetId: number, fork: ForkRequest): Promise<{ form: ScenarioFormModel; fork: ForkPanel }> {
  const [form, scenario] = await Promise.all([scenarioFormModel(deps, actor, adviceSetId), getScenario(deps, actor, fork.scenarioId)])
  if (scenario.adviceSetId !== form.scope.set.id) throw new ValidationError('fork', `fork: advice scenario ${fork.scenarioId} is not in this advice set.`)
  const placed = await placeScenario(deps, form, nodeLabels(form), scenario, new Date())
  return { form, fork: await forkPanel(deps, actor, form, placed, scenario, fork) }
}

/**
 * Saves a fork as a new scenario: the preview is run again here (the page's copy is never trusted), and its outcome
 * is the new scenario's expected outcome, checking the variables the original checks. Pinned API answers go along.
 */
export async function saveFork(deps: Deps, actor: Actor, adviceSetId: number, fork: ForkRequest & { value: string }) {
  const { fork: panel } = await forkPanelModel(deps, actor, adviceSetId, fork)
  const original = await getScenario(deps, actor, fork.scenarioId)
  const preview = panel.preview!
  return createScenario(deps, actor, {
    adviceSetId, name: panel.name, description: preview.description, inputs: preview.inputs, runAsOf: original.runAsOf,
    expected: preview.expected, pinnedResponses: original.pinnedResponses,
  })
}
