// From the debug form to a run: the /api/rule/debug body and the GET query of the same run (the page's permalink
// and the tree fragment's query), spelled as the server reads them (src/http/pages/rule-debug.ts).
import type { DebugField } from '../../src/services/authoring/rule-debug-page.ts'

const INPUT_PREFIX = 'input.'

export interface DebugFormState {
  values: Record<string, string>
  contentType: string
  now: string
}

export function formState(form: FormData, fields: DebugField[]): DebugFormState {
  const text = (name: string) => {
    const value = form.get(name)
    return typeof value === 'string' ? value : ''
  }
  return {
    values: Object.fromEntries(fields.map((field) => [field.variable, text(INPUT_PREFIX + field.variable)])),
    contentType: text('contentType') || 'text',
    now: text('now').trim(),
  }
}

/** Blank answers are left out, so the run stops at their question; a textarea answer is one item per line. */
export function engineInputs(state: DebugFormState, fields: DebugField[]): Record<string, unknown> {
  const inputs: Record<string, unknown> = {}
  for (const field of fields) {
    const raw = state.values[field.variable] ?? ''
    if (raw.trim() === '') continue
    inputs[field.variable] = field.control === 'lines' ? raw.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '') : raw
  }
  return inputs
}

export function apiBody(adviceSetId: number, ruleId: number | null, state: DebugFormState, fields: DebugField[]) {
  return {
    adviceSetId,
    ...(ruleId === null ? {} : { ruleId }),
    inputs: engineInputs(state, fields),
    contentType: state.contentType,
    ...(state.now ? { now: state.now } : {}),
  }
}

export function runQuery(ruleId: number | null, state: DebugFormState, fields: DebugField[]): string {
  const query = new URLSearchParams()
  if (ruleId !== null) query.set('ruleId', String(ruleId))
  for (const field of fields) {
    const value = state.values[field.variable]
    if (value) query.set(INPUT_PREFIX + field.variable, value)
  }
  if (state.now) query.set('now', state.now)
  if (state.contentType !== 'text') query.set('contentType', state.contentType)
  query.set('run', '1')
  return query.toString()
}

/** The scenario form prefilled with this run's answers (and its day): src/http/pages/rule-debug.ts spells it alike. */
export function saveScenarioHref(newScenario: string, state: DebugFormState, fields: DebugField[]): string {
  const query = new URLSearchParams({ inputs: JSON.stringify(engineInputs(state, fields)) })
  if (/^\d{4}-\d{2}-\d{2}$/.test(state.now)) query.set('runAsOf', state.now)
  return `${newScenario}?${query.toString()}`
}
