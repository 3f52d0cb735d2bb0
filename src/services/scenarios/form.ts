// The scenario form (new, edit, copy): what it offers from the set (the debugger's answer fields, the advice items to
// tick, the questions a run can stop at, the variables to check, the external APIs whose answers can be pinned) and
// the two-way translation between a scenario and the form's text fields. Answers keep their JSON kind: a number field
// gives a number, yes/no a boolean, lines a list; a pinned response's body is JSON text.
import { ENTITY_TYPES, adviceGroupOf, formatAnswer, nodeSummary, typedNumber, type CompiledAdviceSet, type NodeModel, type RuleModel } from '../../engine/index.ts'
import type { Actor, Deps } from '../context.ts'
import { canWriteOwned } from '../accounts/visibility.ts'
import { debugScope, inputFields, type DebugField, type DebugScope } from '../authoring/rule-debug-page.ts'
import { ValidationError } from '../errors.ts'
import { calledApiIds, type ScenarioInput } from './fields.ts'
import { FOCUS_COMPLETE, type ExpectedOutcome } from './outcome.ts'
import type { PinnedApiResponse } from '../../db/schema/index.ts'

const GROUP_LABELS = { advice: 'Advice', assumptions: 'Assumption', examples: 'Example' } as const

export interface NodeChoice { id: string; label: string; ruleName: string; group: string }
/** A value a scenario may check: a variable's or a formula's, as the run ends. */
export interface VariableChoice { name: string; kind: 'variable' | 'formula'; dataType: string | null }

/** A field answered by the form; `extra` ones are answers the set asks no question for (kept as written). */
export interface ScenarioField extends DebugField { extra?: boolean }

/** An external API the set's API Call nodes call: a scenario may pin a recorded answer for it. */
export interface ApiChoice { apiId: string; name: string }

export interface ScenarioFormModel {
  scope: DebugScope
  fields: ScenarioField[]
  adviceNodes: NodeChoice[]
  questions: NodeChoice[]
  variables: VariableChoice[]
  apis: ApiChoice[]
  canWrite: boolean
}

function walk(nodes: NodeModel[], visit: (node: NodeModel) => void): void {
  for (const node of nodes) {
    visit(node)
    walk(node.children, visit)
  }
}

/** Nodes of the set's rules and the rules they call, in tree order. */
function nodesOfType(rules: RuleModel[], type: 'advice' | 'inputRequest'): NodeChoice[] {
  const names = new Map(rules.map((r) => [r.id, r.name]))
  const found: NodeChoice[] = []
  for (const rule of rules) {
    walk(rule.nodes, (node) => {
      if (node.type !== type) return
      found.push({
        id: node.id, ruleName: rule.name, label: nodeSummary(node, (id) => names.get(id)) || `${ENTITY_TYPES[type].displayName} ${node.id}`,
        group: type === 'advice' ? GROUP_LABELS[adviceGroupOf(node.tags ?? [])] : 'Question',
      })
    })
  }
  return found
}

/** The set's variables, then its dictionary formulas, each by name. */
function checkableValues(compiled: CompiledAdviceSet): VariableChoice[] {
  const byName = (a: VariableChoice, b: VariableChoice) => a.name.localeCompare(b.name)
  return [
    ...compiled.variables.filter((v) => !v.isSystem).map((v): VariableChoice => ({ name: v.name, kind: 'variable', dataType: v.dataType ?? null })).sort(byName),
    ...compiled.formulas.filter((f) => f.entity !== undefined && !compiled.variableIndex.has(f.name))
      .map((f): VariableChoice => ({ name: f.name, kind: 'formula', dataType: f.dataType ?? null })).sort(byName),
  ]
}

/** How a checked value is written: `[[Name]]` for a formula of the set, `{{Name}}` otherwise. */
export function valueTag(compiled: CompiledAdviceSet, name: string): string {
  return !compiled.variableIndex.has(name) && compiled.formulaIndex.has(name) ? `[[${name}]]` : `{{${name}}}`
}

/** What the form needs from the working draft of a set the actor reads. */
export async function scenarioFormModel(deps: Deps, actor: Actor, adviceSetId: number): Promise<ScenarioFormModel> {
  const scope = await debugScope(deps, actor, adviceSetId, undefined)
  const rules = [...scope.model.rules, ...(scope.model.externalRules ?? [])]
  return {
    scope,
    fields: inputFields(scope),
    adviceNodes: nodesOfType(rules, 'advice'),
    questions: nodesOfType(rules, 'inputRequest'),
    variables: checkableValues(scope.compiled),
    apis: [...calledApiIds(scope.compiled)].map((apiId) => ({ apiId, name: scope.apiNames.get(apiId) ?? `External API ${apiId}` }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    canWrite: canWriteOwned(actor, scope.set.ownerId),
  }
}

/** The form's fields for these answers: the set's questions, then a text field for each other answer given. */
export function fieldsFor(model: ScenarioFormModel, inputs: Record<string, unknown>): ScenarioField[] {
  const asked = new Set(model.fields.map((f) => f.variable))
  const extra = Object.keys(inputs).filter((name) => !asked.has(name)).map((name): ScenarioField => ({
    variable: name, label: `{{${name}}}`, control: 'text', dataType: null, options: [], nodeId: '', extra: true,
    placeholder: '', description: 'An answer no question of this advice set asks for (conditions may read it). Written as JSON when not text.',
  }))
  return [...model.fields, ...extra]
}

// Scenario ↔ form text ------------------------------------------------------------------------------------------------

/** Text the author typed for a value: JSON when it reads as JSON (400, true, ["a","b"], null), else the text itself. */
export function valueFromText(text: string): unknown {
  const trimmed = text.trim()
  try {
    return JSON.parse(trimmed) as unknown
  } catch {
    return text
  }
}

/** An answer as the set's runs show it ("Yes", "$60,000"); as written when it does not fit its variable. */
export function shownAnswer(compiled: CompiledAdviceSet, variable: string, value: unknown): string {
  return formatAnswer(compiled, variable, value) ?? textOfValue(value)
}

/** A value as the form shows it: text as itself, anything else as JSON. */
export function textOfValue(value: unknown): string {
  if (value === null || value === undefined) return ''
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/** An answer as the form's field for it shows it. */
export function answerText(field: ScenarioField, value: unknown): string {
  if (field.extra) return textOfValue(value)
  if (Array.isArray(value)) return value.map((v) => textOfValue(v)).join('\n')
  return value === null || value === undefined ? '' : String(value)
}

/**
 * An answer as the form's text for `field` gives it: a number field a number (read as the embed reads it: "$60,000",
 * "4.2%"), yes/no a boolean, lines a list.
 */
export function answerOf(field: ScenarioField, text: string): unknown {
  if (field.extra) return valueFromText(text)
  switch (field.control) {
    case 'lines': return text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '')
    case 'number': return typedNumber(text, field.dataType === 'percent' ? 'percent' : 'number') ?? text
    case 'boolean': return text === 'true' ? true : text === 'false' ? false : text
    default: return text
  }
}

/** The form's values, as the views read them (`values` of the page) and as a form post gives them back. */
export interface ScenarioFormValues {
  name: string
  description: string
  runAsOf: string
  /** Answer text by variable. */
  inputs: Record<string, string>
  advice: string[]
  focus: string
  /** Checked variables' expected values as text, by name. */
  variables: Record<string, string>
  /** Pinned API answers by API id: whether pinned, the status and the JSON body as text. */
  pinned: Record<string, PinnedFormValue>
}

export interface PinnedFormValue { on: boolean; status: string; body: string }

/** A recorded answer as the form shows it: the body as indented JSON. */
export function pinnedFormValue(pin: PinnedApiResponse): PinnedFormValue {
  return { on: true, status: String(pin.status), body: JSON.stringify(pin.body, null, 2) }
}

export function formValuesOf(fields: ScenarioField[], scenario: {
  name: string; description: string; runAsOf: string | null; inputs: Record<string, unknown>; expected: ExpectedOutcome; pinnedResponses?: Record<string, PinnedApiResponse>
}): ScenarioFormValues {
  const byName = new Map(fields.map((f) => [f.variable, f]))
  return {
    name: scenario.name, description: scenario.description, runAsOf: scenario.runAsOf ?? '',
    inputs: Object.fromEntries(Object.entries(scenario.inputs).map(([name, value]) => [name, byName.has(name) ? answerText(byName.get(name)!, value) : textOfValue(value)])),
    advice: [...scenario.expected.advice],
    focus: scenario.expected.focus,
    variables: Object.fromEntries(Object.entries(scenario.expected.variables).map(([name, value]) => [name, textOfValue(value)])),
    pinned: Object.fromEntries(Object.entries(scenario.pinnedResponses ?? {}).map(([apiId, pin]) => [apiId, pinnedFormValue(pin)])),
  }
}

const text = (raw: unknown): string => Array.isArray(raw) ? raw.map(String).join('\n') : raw === undefined || raw === null ? '' : String(raw)
const list = (raw: unknown): string[] => (Array.isArray(raw) ? raw : raw === undefined || raw === '' ? [] : [raw]).map(String)

const PINNED = /^pinned\.(\d{1,15})\.(on|status|body)$/

/**
 * A posted form as form values: answers `input.<Variable>`, advice `expected.advice` (ticked node ids), focus
 * `expected.focus`, variables `expected.var.<Name>` (ticked) with `expected.value.<Name>`, pinned answers
 * `pinned.<apiId>.on` (ticked), `.status` and `.body`.
 */
export function formValuesFromBody(body: Record<string, unknown>): ScenarioFormValues {
  const inputs: Record<string, string> = {}
  const variables: Record<string, string> = {}
  const pinned: Record<string, PinnedFormValue> = {}
  for (const [key, value] of Object.entries(body)) {
    if (key.startsWith('input.')) inputs[key.slice('input.'.length)] = text(value)
    if (key.startsWith('expected.var.')) {
      const name = key.slice('expected.var.'.length)
      variables[name] = text(body[`expected.value.${name}`])
    }
    const pin = PINNED.exec(key)
    if (pin) {
      const entry = pinned[pin[1]!] ??= { on: false, status: '', body: '' }
      if (pin[2] === 'on') entry.on = text(value) !== ''
      else entry[pin[2] as 'status' | 'body'] = text(value)
    }
  }
  return {
    name: text(body.name), description: text(body.description), runAsOf: text(body.runAsOf).trim(), inputs,
    advice: list(body['expected.advice']), focus: text(body['expected.focus']) || FOCUS_COMPLETE, variables, pinned,
  }
}

/** The pinned answers ticked on the form, as the services take them; a body that is not JSON is refused by field. */
function pinnedResponsesOf(pinned: Record<string, PinnedFormValue>): Record<string, { status: unknown; body: unknown }> {
  const responses: Record<string, { status: unknown; body: unknown }> = {}
  for (const [apiId, pin] of Object.entries(pinned)) {
    if (!pin.on) continue
    const field = `pinnedResponses.${apiId}.body`
    let body: unknown
    try {
      body = JSON.parse(pin.body)
    } catch (error) {
      throw new ValidationError(field, `${field}: is not JSON (${error instanceof Error ? error.message : String(error)}). Write the answer as the API sends it, or record it from a live call.`)
    }
    const status = pin.status.trim() === '' ? 200 : /^\d+$/.test(pin.status.trim()) ? Number(pin.status.trim()) : pin.status
    responses[apiId] = { status, body }
  }
  return responses
}

/** Form values as the services take them; blank answers are left out, so the run stops at their question. */
export function scenarioInputOf(fields: ScenarioField[], values: ScenarioFormValues): ScenarioInput {
  const byName = new Map(fields.map((f) => [f.variable, f]))
  const inputs: Record<string, unknown> = {}
  for (const [name, raw] of Object.entries(values.inputs)) {
    if (raw.trim() === '') continue
    const field = byName.get(name) ?? { variable: name, extra: true } as ScenarioField
    inputs[name] = answerOf(field, raw)
  }
  return {
    name: values.name, description: values.description, runAsOf: values.runAsOf, inputs,
    expected: {
      advice: values.advice, focus: values.focus,
      variables: Object.fromEntries(Object.entries(values.variables).map(([name, raw]) => [name, raw.trim() === '' ? null : valueFromText(raw)])),
    },
    pinnedResponses: pinnedResponsesOf(values.pinned),
  }
}
