// The rule debug pages (issue 5 point 7): a form generated from the questions a run can ask, the run's outcome, and
// the rule trees with the run's trace painted on them. The run is rules.ts tracedRun, as in /api/rule/debug, but on
// the model this file has already built; around it, what the pages need (the form, the trees, views of the result).
import type { Db } from '../../db/client.ts'
import { findAdviceSet, type AdviceSetRow } from '../../db/queries/advice-sets.ts'
import { findRule, listRules } from '../../db/queries/rules.ts'
import {
  ENTITY_TYPES, INPUT_TYPES, compileAdviceSet, nodeSummary, staticChecks, valueToText,
  type AdviceItem, type AdviceSetModel, type CompiledAdviceSet, type ContentBody, type ContentType, type DataType,
  type EngineResult, type NodeModel, type NotGiven, type NodeType, type ResultError, type RuleModel, type TraceEntry, type Value,
} from '../../engine/index.ts'
import { buildAdviceSetModel } from './advice-set-model.ts'
import type { Actor, Deps } from '../context.ts'
import { NotFoundError } from '../errors.ts'
import { runMoment, tracedRun } from './rules.ts'
import { reasonViews, type ReasonView } from './reason-view.ts'
import { notGivenViews, type NotGivenLinks, type NotGivenView } from './not-given-view.ts'
import { canReadSet } from '../accounts/visibility.ts'
import type { ApiCallView } from '../integrations/api-calls.ts'
import { apiChoicesForSet } from '../integrations/external-apis.ts'

/** How a question is answered on the debug form, from its variable's data type. */
export type DebugControl = 'number' | 'date' | 'boolean' | 'select' | 'radio' | 'text' | 'lines'

const CONTROL_OF: Readonly<Record<DataType, DebugControl>> = {
  number: 'number', percent: 'number', date: 'date', boolean: 'boolean', select: 'select', radio: 'radio',
  freetext: 'text', array: 'lines',
}

/** One form control: the variable an input request asks for. */
export interface DebugField {
  variable: string
  /** The question as written (its tags unresolved), or the variable's name when the question is empty. */
  label: string
  control: DebugControl
  dataType: DataType | null
  options: string[]
  placeholder: string
  description: string
  nodeId: string
}

export interface DebugRequest {
  adviceSetId: number
  ruleId?: number
  /** Typed answers by variable name, as the form sends them (array answers one item per line). */
  values: Record<string, string>
  contentType: ContentType
  /** The moment of the run (YYYY-MM-DD or an ISO date-time); empty = now. */
  now: string
  /** An advice node not given whose nearest answers are asked for (beyond the few every run works out). */
  why?: string
}

/** What the debug pages are about: a readable set, optionally one of its rules, as the engine reads them. */
export interface DebugScope {
  set: AdviceSetRow
  rule: { id: number; name: string } | null
  rules: Array<{ id: number; name: string }>
  model: AdviceSetModel
  compiled: CompiledAdviceSet
  /** Names of the set owner's external APIs by id, for API Call nodes. */
  apiNames: Map<string, string>
}

export async function debugScope(deps: Deps, actor: Actor, adviceSetId: number, ruleId: number | undefined): Promise<DebugScope> {
  const set = await findAdviceSet(deps.db, adviceSetId)
  if (!set || !canReadSet(actor, set)) throw new NotFoundError('No advice set with this id')
  const rule = ruleId === undefined ? null : await ruleOfSet(deps.db, set, ruleId)
  const model = await buildAdviceSetModel(deps.db, set.id, rule ? { onlyRuleId: rule.id, reader: actor } : { reader: actor })
  const rules = (await listRules(deps.db, set.id)).map((r) => ({ id: r.id, name: r.name }))
  const apiNames = new Map((await apiChoicesForSet(deps, actor, set)).map((api) => [String(api.id), api.name]))
  return { set, rule, rules, model, compiled: compileAdviceSet(model), apiNames }
}

/** The set is readable already, so a rule that is not live in it is simply not there: the message names the id. */
async function ruleOfSet(db: Db, set: AdviceSetRow, ruleId: number) {
  const rule = await findRule(db, ruleId)
  if (!rule || rule.adviceSetId !== set.id) throw new NotFoundError(`ruleId: there is no rule ${ruleId} in this advice set.`)
  return { id: rule.id, name: rule.name }
}

/**
 * Rules a run of the scope can enter: those that run on their own, then the ones their Rule Calls reach (a rule that
 * runs only when called among them), each once, in call order.
 */
function reachableRules(model: AdviceSetModel): Array<{ rule: RuleModel; called: boolean }> {
  const byId = new Map([...model.rules, ...(model.externalRules ?? [])].map((r) => [r.id, r]))
  const reached = model.rules.filter((rule) => rule.onlyWhenCalled !== true).map((rule) => ({ rule, called: false }))
  const seen = new Set(reached.map(({ rule }) => rule.id))
  for (let i = 0; i < reached.length; i++) {
    walk(reached[i]!.rule.nodes, (node) => {
      const called = node.calledRuleId === undefined ? undefined : byId.get(node.calledRuleId)
      if (called && !seen.has(called.id)) {
        seen.add(called.id)
        reached.push({ rule: called, called: true })
      }
    })
  }
  return reached
}

function walk(nodes: NodeModel[], visit: (node: NodeModel) => void): void {
  for (const node of nodes) {
    visit(node)
    walk(node.children, visit)
  }
}

/** One field per variable that an input request of a reachable rule asks for, in tree order. */
export function inputFields(scope: DebugScope): DebugField[] {
  const fields = new Map<string, DebugField>()
  for (const { rule } of reachableRules(scope.model)) {
    walk(rule.nodes, (node) => {
      if (node.type !== 'inputRequest' || !node.variable || fields.has(node.variable)) return
      const slot = scope.compiled.variables[scope.compiled.variableIndex.get(node.variable) ?? -1]
      const dataType = slot?.dataType ?? null
      const info = INPUT_TYPES[dataType ?? 'freetext']
      fields.set(node.variable, {
        variable: node.variable,
        label: node.question?.trim() || node.variable,
        control: dataType ? CONTROL_OF[dataType] : 'text',
        dataType,
        options: slot?.options ?? [],
        placeholder: dataType === 'array' ? 'One item per line' : info.placeholder,
        description: dataType === 'array' ? 'A list of values, one per line.' : info.description,
        nodeId: node.id,
      })
    })
  }
  return [...fields.values()]
}

/** The engine's inputs from the form: blank answers are left out, so the run stops at their question. */
export function debugInputs(fields: DebugField[], values: Record<string, string>): Record<string, unknown> {
  const inputs: Record<string, unknown> = {}
  for (const field of fields) {
    const raw = values[field.variable]
    if (raw === undefined || raw.trim() === '') continue
    inputs[field.variable] = field.control === 'lines' ? raw.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '') : raw
  }
  return inputs
}

export type DebugOutput = Awaited<ReturnType<typeof tracedRun>>

/** Runs the scope's model, already built and compiled for the page, as /api/rule/debug runs a stored one. */
export function runDebug(deps: Deps, scope: DebugScope, fields: DebugField[], request: DebugRequest): Promise<DebugOutput> {
  const now = runMoment(request.now.trim() || undefined)
  return tracedRun(deps, scope.set.ownerId, scope.model, scope.compiled, {
    inputs: debugInputs(fields, request.values), contentType: request.contentType, ...(now ? { now } : {}),
    whyNot: { nearestFor: request.why ? [request.why] : [] },
  })
}

// Views of a run -----------------------------------------------------------------------------------------------------

/** Rendered content: sanitized HTML for the html content types, text for the others. */
export type BodyView = { html: string } | { text: string }

function bodyView(body: ContentBody | undefined, contentType: ContentType): BodyView {
  if (body === undefined) return { text: '' }
  if (typeof body !== 'string') return { text: body.text }
  return contentType === 'html' || contentType === 'htmlnolinks' ? { html: body } : { text: body }
}

export interface RunView {
  done: boolean
  advice: ItemView[]
  assumptions: ItemView[]
  examples: ItemView[]
  focus: { nodeId: string; variable: string; question: BodyView; error: string | null; reasons: ReasonView[] } | null
  answered: Array<{ nodeId: string; variable: string; question: BodyView; valueFormatted: string }>
  /** Variables that hold a value at the end of the run, then formulas that have one. */
  variables: Array<{ name: string; kind: 'variable' | 'formula'; value: string; valueFormatted: string; isSystem: boolean }>
  errors: Array<{ nodeId: string; ruleId: string; code: string; message: string }>
  /** Advice nodes the run did not reach, and why (NotGivenView). */
  notGiven: NotGivenView[]
}

export interface ItemView { nodeId: string; headline: BodyView; text: BodyView; tags: string[]; reasons: ReasonView[] }

/** A run as the pages show it; `notGiven` (with the page's links) when the run said why advice was not given. */
export function runView(result: EngineResult, contentType: ContentType, notGiven?: { entries: NotGiven[] | undefined; links: NotGivenLinks }): RunView {
  const reasons = result.explanation
  const item = (a: AdviceItem): ItemView => ({
    nodeId: a.nodeId, headline: bodyView(a.headline, contentType), text: bodyView(a.text, contentType), tags: [...a.tags],
    reasons: reasonViews(reasons?.items.get(a.nodeId)),
  })
  const focus = result.currentFocus
  return {
    done: result.done,
    advice: result.advice.map(item),
    assumptions: result.assumptions.map(item),
    examples: result.examples.map(item),
    focus: focus ? { nodeId: focus.nodeId, variable: focus.variable, question: bodyView(focus.question, contentType), error: focus.error?.message ?? null, reasons: reasonViews(reasons?.focus) } : null,
    answered: result.inputRequests.map((a) => ({ nodeId: a.nodeId, variable: a.variable, question: bodyView(a.question, contentType), valueFormatted: a.valueFormatted })),
    variables: [
      ...Object.entries(result.variables).map(([name, v]) => ({ name, kind: 'variable' as const, value: JSON.stringify(v.value), valueFormatted: v.valueFormatted, isSystem: v.isSystem })),
      ...Object.entries(result.formulas).map(([name, f]) => ({ name, kind: 'formula' as const, value: JSON.stringify(f.value), valueFormatted: f.valueFormatted, isSystem: false })),
    ],
    errors: result.errors.map((e) => ({ nodeId: e.nodeId, ruleId: e.ruleId, code: e.code, message: e.message })),
    notGiven: notGiven ? notGivenViews(notGiven.entries, notGiven.links) : [],
  }
}

// The painted trees ------------------------------------------------------------------------------------------------

export interface DebugNodeView {
  id: string
  type: NodeType
  typeLabel: string
  summary: string
  visited: boolean
  /** Times the run entered the node (a rule called twice visits its nodes twice). */
  visits: number
  /** The node's value on its last visit (a condition's outcome, an assigned or answered value); null when none. */
  value: string | null
  /** Time spent in the node and everything it ran, all visits together. */
  time: string | null
  unreachable: boolean
  /** The input request the run stopped at. */
  focus: boolean
  /** Why the node's evaluation failed in the run (its rule could not finish there), or a text naming a missing value. */
  error: string | null
  /** An API Call node's request and response in the run. */
  api: ApiCallView | null
  editHref: string
  children: DebugNodeView[]
}

export interface DebugTreeView {
  ran: boolean
  rules: Array<{ id: string; name: string; called: boolean; href: string; nodes: DebugNodeView[] }>
  unreachable: Array<{ nodeId: string; ruleName: string; typeLabel: string; summary: string; editHref: string }>
}

interface Visit { visits: number; value: Value; ns: number }

function visitsOf(trace: readonly TraceEntry[]): Map<string, Visit> {
  const visits = new Map<string, Visit>()
  for (const entry of trace) {
    const seen = visits.get(entry.nodeId)
    if (seen) {
      seen.visits += 1
      seen.value = entry.value
      seen.ns += entry.durationNs
    } else visits.set(entry.nodeId, { visits: 1, value: entry.value, ns: entry.durationNs })
  }
  return visits
}

/** Text is quoted so an empty or numeric-looking text reads as text. */
function traceValue(value: Value): string | null {
  if (value === null) return null
  return typeof value === 'string' ? JSON.stringify(value) : valueToText(value)
}

function formatDuration(ns: number): string {
  if (ns < 1_000_000) return `${(ns / 1000).toFixed(1)} µs`
  return `${(ns / 1_000_000).toFixed(2)} ms`
}

function nodeHref(adviceSetId: string, ruleId: string, nodeId: string): string {
  return `/adviceset/${adviceSetId}/rule/${ruleId}/part/${nodeId}`
}

/** Each failing node's problem in its own words (the cause, not the rule-level "incomplete advice" around it). */
function errorsByNode(errors: readonly ResultError[]): Map<string, string> {
  const byNode = new Map<string, string>()
  for (const error of errors) {
    const message = error.cause?.message ?? error.message
    const before = byNode.get(error.nodeId)
    byNode.set(error.nodeId, before === undefined ? message : `${before} ${message}`)
  }
  return byNode
}

/**
 * What a tree is painted from: a run of the debugger (DebugOutput), or anything shaped like one, such as the path a
 * decision record kept (services/decisions/recorded-tree.ts).
 */
export interface TreePaint {
  result: { trace?: readonly TraceEntry[] | undefined; currentFocus?: { nodeId: string } | undefined; errors: readonly ResultError[] }
  unreachable: readonly string[]
  apiCalls?: readonly ApiCallView[]
}

/** The trees of every rule the run could enter, with the trace (when there was a run) and the unreachable nodes. */
export function paintedTrees(scope: DebugScope, output: TreePaint | null): DebugTreeView {
  const reached = reachableRules(scope.model)
  const ruleNames = new Map(reached.map(({ rule }) => [rule.id, rule.name]))
  const unreachableIds = new Set(output ? output.unreachable : staticChecks(scope.model, scope.compiled).filter((i) => i.code === 'UNREACHABLE').map((i) => i.nodeId))
  const visits = output?.result.trace ? visitsOf(output.result.trace) : new Map<string, Visit>()
  const focusId = output?.result.currentFocus?.nodeId
  const apiCalls = new Map((output?.apiCalls ?? []).map((call) => [call.nodeId, call]))
  const errors = errorsByNode(output?.result.errors ?? [])
  const apiName = (id: string) => scope.apiNames.get(id)
  const unreachable: DebugTreeView['unreachable'] = []
  const paint = (rule: RuleModel) => (node: NodeModel): DebugNodeView => {
    const visit = visits.get(node.id)
    const view: DebugNodeView = {
      id: node.id, type: node.type, typeLabel: ENTITY_TYPES[node.type].displayName, summary: nodeSummary(node, (id) => ruleNames.get(id), apiName),
      visited: visit !== undefined, visits: visit?.visits ?? 0, value: visit ? traceValue(visit.value) : null,
      time: visit ? formatDuration(visit.ns) : null, unreachable: unreachableIds.has(node.id), focus: node.id === focusId, error: errors.get(node.id) ?? null, api: apiCalls.get(node.id) ?? null,
      editHref: nodeHref(rule.adviceSetId, rule.id, node.id), children: [],
    }
    if (view.unreachable) unreachable.push({ nodeId: node.id, ruleName: rule.name, typeLabel: view.typeLabel, summary: view.summary, editHref: view.editHref })
    view.children = node.children.map(paint(rule))
    return view
  }
  return {
    ran: output !== null,
    rules: reached.map(({ rule, called }) => ({
      id: rule.id, name: rule.name, called, href: `/adviceset/${rule.adviceSetId}/rule/${rule.id}/show`, nodes: rule.nodes.map(paint(rule)),
    })),
    unreachable,
  }
}
