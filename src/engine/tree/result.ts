// The shape evaluate() returns. Formatting values is the costly part of a result and decisions rarely need it,
// so `valueFormatted` and the variables map are computed on first read (and by toJSON).
import type { ApiContext } from '../entity-types.ts'
import type { SourceRef } from '../model.ts'
import { formatValue } from '../format/index.ts'
import type { DataType } from '../types/index.ts'
import type { Value } from '../value.ts'
import type { AdviceGroup, AdviceItem, CompiledAdviceSet, ContentBody, FormulaSlot, VariableSlot } from './compiled.ts'
import type { Explanation, Reason } from './explainer.ts'

export interface ResultError {
  nodeId: string
  ruleId: string
  code: string
  message: string
  /** The variable whose missing value made the rule incomplete. */
  variable?: string
  /** The error that stopped the rule, for INCOMPLETE_ADVICE and RULE_FAILED. */
  cause?: { code: string; message: string }
}

export interface CurrentFocus {
  nodeId: string
  ruleId: string
  variable: string
  question: ContentBody
  dataType?: DataType
  options?: string[]
  defaultValue?: Value
  /** Set when an answer was given but could not be used. */
  error?: { code: string; message: string }
}

export interface PendingApiCall {
  nodeId: string
  ruleId: string
  apiId: string
  variable: string
}

export interface TraceEntry {
  nodeId: string
  type: string
  /** The node's value: a condition's outcome, an assigned or answered value; null for the others. */
  value: Value
  /** Time spent in the node and everything it ran, nanoseconds (timer resolution permitting). */
  durationNs: number
}

export interface FormulaSource {
  peekFormula(index: number): Value | undefined
}

/** A formula's value at the end of a run. */
export interface FormulaResult {
  value: Value
  valueFormatted: string
}

export interface VariableResult {
  value: Value
  valueFormatted: string
  isSystem: boolean
  isConstant: boolean
}

export function inferDataType(value: Value): DataType {
  if (typeof value === 'number') return 'number'
  if (typeof value === 'boolean') return 'boolean'
  if (value instanceof Date) return 'date'
  if (Array.isArray(value)) return 'array'
  return 'freetext'
}

export function formatSlot(value: Value, slot: VariableSlot | FormulaSlot): string {
  return formatValue(value, slot.dataType ?? inferDataType(value), slot.displayFormat)
}

export class AnsweredInput {
  private formatted: string | undefined

  constructor(
    readonly nodeId: string,
    readonly ruleId: string,
    readonly variable: string,
    readonly question: ContentBody,
    readonly value: Value,
    private readonly slot: VariableSlot,
  ) {}

  get valueFormatted(): string {
    this.formatted ??= formatSlot(this.value, this.slot)
    return this.formatted
  }

  toJSON(): object {
    const { nodeId, ruleId, variable, question, value, valueFormatted } = this
    return { nodeId, ruleId, variable, question, value, valueFormatted }
  }
}

/** Shared by every result until something is added, so a run that adds nothing allocates nothing. */
const NONE: never[] = Object.freeze([]) as never[]

export class EngineResult {
  readonly adviceSet: { id: string; name: string }
  /** Answered input requests, in the order they were asked. */
  inputRequests: readonly AnsweredInput[] = NONE
  currentFocus: CurrentFocus | undefined = undefined
  advice: readonly AdviceItem[] = NONE
  assumptions: readonly AdviceItem[] = NONE
  examples: readonly AdviceItem[] = NONE
  errors: readonly ResultError[] = NONE
  pendingApiCalls: readonly PendingApiCall[] = NONE
  trace: TraceEntry[] | undefined = undefined
  /** Runs with `explain`: the reasons of each advice item and of the focus (see explainer.ts). */
  explanation: Explanation | undefined = undefined
  private variableMap: Record<string, VariableResult> | undefined
  private formulaMap: Record<string, FormulaResult> | undefined
  /**
   * Set by the run (itself: no allocation per run): a formula's value as the run ended, computed when asked (most
   * callers never ask), without changing the run's values; undefined when it cannot be computed.
   */
  formulaSource: FormulaSource | undefined = undefined

  constructor(
    private readonly compiled: CompiledAdviceSet,
    /** Final value of each variable slot; undefined = never set. */
    private readonly values: Array<Value | undefined>,
    readonly context: ApiContext,
    /** Full-response runs: values already formatted for content, reused for the value they were formatted from. */
    private readonly resolved?: ReadonlyArray<{ value: Value; formatted: string } | undefined>,
  ) {
    this.adviceSet = compiled.identity
  }

  addInput(answer: AnsweredInput): void {
    this.inputRequests = append(this.inputRequests, answer)
  }

  addItem(group: AdviceGroup, item: AdviceItem): void {
    // Spelled out rather than this[group]: a fixed field keeps the store monomorphic on the hot path.
    if (group === 'advice') this.advice = append(this.advice, item)
    else if (group === 'assumptions') this.assumptions = append(this.assumptions, item)
    else this.examples = append(this.examples, item)
  }

  addError(error: ResultError): void {
    this.errors = append(this.errors, error)
  }

  addPendingApiCall(call: PendingApiCall): void {
    this.pendingApiCalls = append(this.pendingApiCalls, call)
  }

  /** True when nothing is left to ask or fetch. */
  get done(): boolean {
    return this.currentFocus === undefined && this.pendingApiCalls.length === 0
  }

  /** Every variable that holds a value at the end of the run. */
  get variables(): Record<string, VariableResult> {
    if (this.variableMap) return this.variableMap
    const map: Record<string, VariableResult> = {}
    this.forEachVariable((slot, value, valueFormatted) => {
      map[slot.name] = { value, valueFormatted, isSystem: slot.isSystem, isConstant: slot.isConstant }
    })
    this.variableMap = map
    return map
  }

  /** Whether `name` holds a value at the end of the run (is a key of `variables`), without formatting anything. */
  hasValue(name: string): boolean {
    const index = this.compiled.variableIndex.get(name)
    if (index === undefined) return false
    const slot = this.compiled.variables[index]!
    return (this.values[index] ?? (slot.isConstant ? slot.defaultValue : undefined)) !== undefined
  }

  /**
   * One variable's value at the end of the run, as `variables` has it but without formatting anything: undefined
   * when it holds none or the set has no such variable. For callers that check a few values (scenario runs).
   */
  valueOf(name: string): Value | undefined {
    const index = this.compiled.variableIndex.get(name)
    if (index === undefined) return undefined
    const slot = this.compiled.variables[index]!
    return this.values[index] ?? (slot.isConstant ? slot.defaultValue : undefined)
  }

  /** One formula's value as the run ended; undefined when the set has no such formula or it cannot be computed. */
  formulaValueOf(name: string): Value | undefined {
    const index = this.compiled.formulaIndex.get(name)
    return index === undefined ? undefined : this.formulaSource?.peekFormula(index)
  }

  /** Every formula of the set that has a value at the end of the run, formatted as its dictionary entry says. */
  get formulas(): Record<string, FormulaResult> {
    if (this.formulaMap) return this.formulaMap
    const map: Record<string, FormulaResult> = {}
    this.compiled.formulas.forEach((slot, index) => {
      const value = this.formulaSource?.peekFormula(index)
      if (value !== undefined) map[slot.name] = { value, valueFormatted: formatSlot(value, slot) }
    })
    this.formulaMap = map
    return map
  }

  /**
   * The variables of `variables`, in the same order, without building the map: for callers that write them out
   * straight away (the Advice API's response writer). `index` is the slot's position in compiled.variables.
   */
  forEachVariable(visit: (slot: VariableSlot, value: Value, valueFormatted: string, index: number) => void): void {
    const slots = this.compiled.variables
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!
      const value = this.values[i] ?? (slot.isConstant ? slot.defaultValue : undefined)
      if (value === undefined) continue
      const resolved = this.resolved?.[i]
      visit(slot, value, resolved !== undefined && resolved.value === value ? resolved.formatted : formatSlot(value, slot), i)
    }
  }

  /** Sources of the emitted items, first mention first, each once. */
  get sources(): SourceRef[] {
    const seen = new Set<string>()
    const sources: SourceRef[] = []
    for (const list of [this.advice, this.assumptions, this.examples]) {
      for (const item of list) {
        for (const source of item.sources) {
          if (seen.has(source.id)) continue
          seen.add(source.id)
          sources.push(source)
        }
      }
    }
    return sources
  }

  /** The focus, with the path that made it the next question when the run explained itself. */
  get explainedFocus(): (CurrentFocus & { reasons?: Reason[] }) | undefined {
    const reasons = this.explanation?.focus
    return this.currentFocus && reasons ? { ...this.currentFocus, reasons } : this.currentFocus
  }

  /** The items, each with its reasons when the run explained itself. */
  explained(items: readonly AdviceItem[]): ReadonlyArray<AdviceItem & { reasons?: Reason[] }> {
    const explanation = this.explanation
    if (explanation === undefined) return items
    return items.map((item) => ({ ...item, reasons: explanation.items.get(item.nodeId) ?? [] }))
  }

  toJSON(): object {
    return {
      adviceSet: this.adviceSet,
      context: this.context,
      done: this.done,
      inputRequests: this.inputRequests.map((answer) => answer.toJSON()),
      ...(this.currentFocus ? { currentFocus: this.explainedFocus } : {}),
      advice: this.explained(this.advice),
      assumptions: this.explained(this.assumptions),
      examples: this.explained(this.examples),
      variables: this.variables,
      sources: this.sources,
      errors: this.errors,
      pendingApiCalls: this.pendingApiCalls,
      ...(this.trace ? { trace: this.trace } : {}),
    }
  }
}

function append<T>(list: readonly T[], item: T): readonly T[] {
  if (list === NONE) return [item]
  ;(list as T[]).push(item)
  return list
}
