// An engine result as the Advice API answers it: `data` with the members of the contract, narrowed by the
// request's fieldsets and filters; and the legacy form, one flat list of questions and advice in evaluation order.
import {
  INPUT_TYPES, type AdviceItem, type CompiledAdviceSet, type ContentBody, type CurrentFocus, type DataType, type EngineResult,
  type ResultError, type SourceRef, type Value, type VariableResult, type VariableSlot,
} from '../../engine/index.ts'
import { pick, type ResponseShape } from './fields.ts'
import type { ServedVersion } from '../publishing/versions.ts'

export interface AdviceSetInfo {
  id: number
  name: string
  nameAlt: string
  description: string
  /** The number of the version that answered. */
  version: number
}

export interface FocusView extends Omit<CurrentFocus, 'dataType'> {
  /** How to ask: the variable's data type, freetext when the dictionary gives none. */
  inputType: DataType
  dataType?: DataType
  placeholder: string
  description: string
}

export interface VariableView extends VariableResult {
  dataType?: DataType
}

export interface AdviceData {
  adviceSet: Partial<AdviceSetInfo>
  inputRequests: object[]
  currentFocus: Partial<FocusView> | null
  advice: Array<Partial<AdviceItem>>
  assumptions: Array<Partial<AdviceItem>>
  examples: Array<Partial<AdviceItem>>
  variables?: Record<string, Partial<VariableView>>
  sources: Array<Partial<SourceRef>>
  errors: Array<Partial<ResultError>>
}

export function adviceSetInfo(version: ServedVersion): AdviceSetInfo {
  const { id, name, nameAlt, description } = version.snapshot.adviceSet
  return { id, name, nameAlt, description, version: version.number }
}

export function focusView(focus: CurrentFocus): FocusView {
  const inputType = focus.dataType ?? 'freetext'
  const { placeholder, description } = INPUT_TYPES[inputType]
  return { ...focus, inputType, placeholder, description }
}

export function adviceData(result: EngineResult, version: ServedVersion, compiled: CompiledAdviceSet, shape: ResponseShape): AdviceData {
  const { fields } = shape
  const data: AdviceData = {
    adviceSet: pick(adviceSetInfo(version), fields.adviceSet),
    inputRequests: result.inputRequests.map((answer) => pick(answer.toJSON(), fields.inputRequests)),
    currentFocus: result.currentFocus ? pick(focusView(result.explainedFocus!), fields.currentFocus) : null,
    advice: result.explained(result.advice).map((item) => pick(item, fields.advice)),
    assumptions: result.explained(result.assumptions).map((item) => pick(item, fields.assumptions)),
    examples: result.explained(result.examples).map((item) => pick(item, fields.examples)),
    sources: result.sources.map((source) => pick(source, fields.sources)),
    errors: result.errors.map((error) => pick(error, fields.errors)),
  }
  if (!shape.withoutVariables) data.variables = variablesView(result.variables, compiled, shape)
  return data
}

function variablesView(variables: Record<string, VariableResult>, compiled: CompiledAdviceSet, shape: ResponseShape): Record<string, Partial<VariableView>> {
  const out: Record<string, Partial<VariableView>> = {}
  for (const [name, variable] of Object.entries(variables)) {
    if (shape.withoutSystemVariables && variable.isSystem) continue
    if (shape.withoutConstants && variable.isConstant) continue
    out[name] = pick(variableView(variable.value, variable.valueFormatted, compiled.variables[compiled.variableIndex.get(name)!]!), shape.fields.variables)
  }
  return out
}

/** A variable's entry in `data.variables`: its data type is given when the dictionary has one. */
export function variableView(value: Value, valueFormatted: string, slot: VariableSlot): VariableView {
  const { dataType, isSystem, isConstant } = slot
  return dataType === undefined ? { value, valueFormatted, isSystem, isConstant } : { value, valueFormatted, dataType, isSystem, isConstant }
}

export type LegacyItem =
  | { type: 'inputRequest'; nodeId: string; ruleId: string; variable: string; question: ContentBody; value: Value; valueFormatted: string }
  | ({ type: 'currentFocus' } & FocusView)
  | ({ type: 'advice'; group: 'advice' | 'assumptions' | 'examples' } & AdviceItem)

/**
 * The answered questions and the emitted advice merged in the order the run reached them (from the run's trace),
 * then the question the run stopped at, if any.
 */
export function legacyItems(result: EngineResult): LegacyItem[] {
  const answered = result.inputRequests
  const groups = [
    { group: 'advice' as const, items: result.advice, next: 0 },
    { group: 'assumptions' as const, items: result.assumptions, next: 0 },
    { group: 'examples' as const, items: result.examples, next: 0 },
  ]
  const items: LegacyItem[] = []
  let nextAnswer = 0
  for (const entry of result.trace ?? []) {
    if (entry.type === 'inputRequest') {
      const answer = answered[nextAnswer]
      if (answer?.nodeId !== entry.nodeId) continue
      nextAnswer++
      const { nodeId, ruleId, variable, question, value, valueFormatted } = answer
      items.push({ type: 'inputRequest', nodeId, ruleId, variable, question, value, valueFormatted })
    } else if (entry.type === 'advice') {
      // A visit that emitted nothing (its rule failed while rendering) has no item; each group keeps emit order.
      const group = groups.find((g) => g.items[g.next]?.nodeId === entry.nodeId)
      if (!group) continue
      items.push({ type: 'advice', group: group.group, ...group.items[group.next++]! })
    }
  }
  if (result.currentFocus) items.push({ type: 'currentFocus', ...focusView(result.currentFocus) })
  return items
}
