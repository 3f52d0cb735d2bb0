// The rule-debug island's props, rendered by the debug page (src/http/pages/rule-debug.ts): the generated form, the
// answers it was rendered with, and the run's result as /api/rule/debug returns it.
import type { DebugControl, DebugField } from '../../src/services/authoring/rule-debug-page.ts'
import { InvalidPropsError } from '../shared/invalid-props.ts'
import { isRecord } from '../shared/guards.ts'

export interface RuleDebugProps {
  adviceSetId: number
  ruleId: number | null
  /** The debug page's path; the tree fragment is `${base}/tree`. */
  base: string
  fields: DebugField[]
  values: Record<string, string>
  contentType: string
  contentTypes: string[]
  now: string
  /** The result of the run the page was rendered with (JSON as the API sends it), or null before any run. */
  result: unknown
  /** The formulas' values as that run ended (as /api/rule/debug sends them beside the result). */
  formulas: unknown
  /** Why each advice node not given was not (as /api/rule/debug sends it beside the result). */
  notGiven: unknown
  /** The new-scenario page, for "Save as scenario"; null when the user cannot write the set's scenarios. */
  newScenario: string | null
}

const CONTROLS: readonly DebugControl[] = ['number', 'date', 'boolean', 'select', 'radio', 'text', 'lines']

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string')

function parseField(raw: unknown): DebugField {
  if (!isRecord(raw) || typeof raw.variable !== 'string' || typeof raw.label !== 'string' || typeof raw.nodeId !== 'string' ||
    !CONTROLS.includes(raw.control as DebugControl) || !isStringList(raw.options)) {
    throw new InvalidPropsError('every field needs a variable, label, node id, control and options')
  }
  return {
    variable: raw.variable, label: raw.label, control: raw.control as DebugControl, nodeId: raw.nodeId, options: raw.options,
    dataType: typeof raw.dataType === 'string' ? raw.dataType as DebugField['dataType'] : null,
    placeholder: typeof raw.placeholder === 'string' ? raw.placeholder : '',
    description: typeof raw.description === 'string' ? raw.description : '',
  }
}

function parseValues(raw: unknown): Record<string, string> {
  if (!isRecord(raw)) return {}
  return Object.fromEntries(Object.entries(raw).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
}

export function parseRuleDebugProps(raw: unknown): RuleDebugProps {
  if (!isRecord(raw) || typeof raw.adviceSetId !== 'number' || typeof raw.base !== 'string' || !Array.isArray(raw.fields) ||
    !isStringList(raw.contentTypes)) {
    throw new InvalidPropsError('rule-debug needs an advice set id, base path, fields and content types')
  }
  return {
    adviceSetId: raw.adviceSetId,
    ruleId: typeof raw.ruleId === 'number' ? raw.ruleId : null,
    base: raw.base,
    fields: raw.fields.map(parseField),
    values: parseValues(raw.values),
    contentType: typeof raw.contentType === 'string' ? raw.contentType : 'text',
    contentTypes: raw.contentTypes,
    now: typeof raw.now === 'string' ? raw.now : '',
    result: raw.result ?? null,
    formulas: raw.formulas ?? null,
    notGiven: raw.notGiven ?? null,
    newScenario: typeof raw.newScenario === 'string' ? raw.newScenario : null,
  }
}
