// One evaluation of a compiled advice set. The Run is the expressions' Scope: it owns the variable values of this
// run, reads inputs lazily (coercing each once), computes formulas on demand with a memo that any write
// invalidates, and walks the rule trees. Node outcomes are small integers so the hot path allocates nothing.
import { renderContent } from '../content/index.ts'
import type { ContentType, ResolvedTag } from '../content/index.ts'
import { EngineError } from '../errors.ts'
import type { CompiledExpr, Scope } from '../expr/index.ts'
import type { RefKind } from '../expr/ast.ts'
import { coerceInput } from '../types/index.ts'
import { valueToText } from '../value.ts'
import type { Value } from '../value.ts'
import { rawToValue } from './compile.ts'
import {
  KIND_ADVICE,
  KIND_ALWAYS,
  KIND_API,
  KIND_ASSIGN,
  KIND_CALL,
  KIND_CONDITION,
  KIND_EXIT,
  KIND_FORMULA,
  KIND_INPUT,
  type AdviceItem,
  type CompiledAdviceSet,
  type CompiledNode,
  type CompiledRule,
  type RenderedContent,
  type VariableSlot,
} from './compiled.ts'
import type { ApiPort, EvaluateOptions } from './options.ts'
import { AnsweredInput, EngineResult, formatSlot } from './result.ts'
import type { TraceEntry } from './result.ts'
import { CONTEXT_SLOT, DATA_API_SOURCES_SLOT, EXAMPLE_NUMBER_SLOT, HEADLINE_SLOT, API_KEY_OWNER_SLOT, RESERVED_SLOTS } from './slots.ts'

const CONTINUE = 0
const EXIT_RULE = 1
const STOP = 2

const DEFAULT_MAX_STEPS = 100_000
const DEFAULT_MAX_CALL_DEPTH = 32
const NO_SOURCES: Value[] = []

export class Run implements Scope {
  readonly now: Date
  private readonly values: Array<Value | undefined>
  /** The input request that set each variable, for backlinks in rendered content. */
  private readonly questionOf: Array<string | undefined>
  private formulaValue: Value[] | null = null
  private formulaEpoch: number[] | null = null
  private formulaBusy: Uint8Array | null = null
  private formulaOverride: Array<CompiledExpr | undefined> | null = null
  private epoch = 1
  private steps = 0
  private readonly maxSteps: number
  private readonly maxCallDepth: number
  private readonly callStack: string[] = []
  private readonly render: boolean
  private readonly contentType: ContentType
  private readonly apiPort: ApiPort | undefined
  private readonly trace: TraceEntry[] | null
  /** The trace entry whose value the node being visited has not reported yet. */
  private openEntry: TraceEntry | null = null
  private currentNode: CompiledNode | null = null
  private unsetName = ''
  private readonly result: EngineResult
  private readonly resolveTag = (kind: 'variable' | 'formula', name: string): ResolvedTag | undefined =>
    this.resolveForContent(kind, name)

  constructor(
    private readonly compiled: CompiledAdviceSet,
    private readonly inputs: Record<string, unknown>,
    private readonly options: EvaluateOptions,
  ) {
    this.now = options.now ?? new Date()
    this.maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS
    this.maxCallDepth = options.maxCallDepth ?? DEFAULT_MAX_CALL_DEPTH
    this.render = options.render !== false
    this.contentType = options.contentType ?? 'text'
    this.apiPort = options.apiPort
    this.trace = options.trace === true ? [] : null
    const count = compiled.variables.length
    this.values = new Array<Value | undefined>(count).fill(undefined)
    this.questionOf = this.render ? new Array<string | undefined>(count).fill(undefined) : []
    const context = options.context ?? 'run'
    this.values[CONTEXT_SLOT] = context
    if (context === 'examples') this.values[EXAMPLE_NUMBER_SLOT] = options.exampleNumber ?? 1
    if (options.apiKeyOwnerId !== undefined) this.values[API_KEY_OWNER_SLOT] = options.apiKeyOwnerId
    this.values[DATA_API_SOURCES_SLOT] = options.dataApiSources ? [...options.dataApiSources] : NO_SOURCES
    this.result = new EngineResult(compiled, this.values, context)
    if (this.trace) this.result.trace = this.trace
  }

  execute(): EngineResult {
    const rules = this.compiled.rules
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i]!
      try {
        this.callStack.length = 0
        this.callStack.push(rule.id)
        if (this.runNodes(rule.nodes) === STOP) break
      } catch (error) {
        if (!(error instanceof EngineError)) throw error
        if (error.code === 'STEP_LIMIT') {
          this.recordFailure(rule, error)
          break
        }
        this.recordFailure(rule, error)
      }
    }
    return this.result
  }

  lookup(kind: RefKind, name: string): Value {
    if (kind === 'formula' || (kind === 'bare' && this.compiled.bareFormulas.has(name))) {
      const index = this.compiled.formulaIndex.get(name)
      if (index === undefined) throw new EngineError('UNKNOWN_FORMULA', `There is no formula named [[${name}]].`)
      return this.formula(index)
    }
    const slot = this.compiled.variableIndex.get(name)
    if (slot === undefined) return this.unset(name)
    const value = this.values[slot]
    return value === undefined ? this.fromInputs(slot) : value
  }

  private unset(name: string): never {
    this.unsetName = name
    throw new EngineError('UNSET_VARIABLE', `{{${name}}} has no value.`)
  }

  /** A variable nobody set this run: its input (coerced once), else its default, else it is unset. */
  private fromInputs(slot: number): Value {
    const info = this.compiled.variables[slot]!
    if (!info.isConstant && slot >= RESERVED_SLOTS) {
      const answer = this.coerceAnswer(info)
      if (answer !== undefined) {
        if (answer instanceof EngineError) throw answer
        this.values[slot] = answer
        return answer
      }
    }
    if (info.defaultValue !== undefined) return info.defaultValue
    return this.unset(info.name)
  }

  /** The input given for a variable: its value, an error when it cannot be used, undefined when there is none. */
  private coerceAnswer(info: VariableSlot): Value | EngineError | undefined {
    if (!Object.hasOwn(this.inputs, info.name)) return undefined
    const raw = this.inputs[info.name]
    if (raw === undefined || raw === null) return undefined
    if (info.dataType === undefined) {
      const value = rawToValue(raw)
      if (value === undefined) return new EngineError('INVALID_INPUT', `The answer given for {{${info.name}}} is not a value.`)
      return value === null ? undefined : value
    }
    const coerced = coerceInput(info.dataType, raw, info.options ? { options: info.options } : undefined)
    if (!coerced.ok) return new EngineError(coerced.code, coerced.message)
    return coerced.value === null ? undefined : coerced.value
  }

  private formula(index: number): Value {
    let memo = this.formulaValue
    let epochs = this.formulaEpoch
    if (memo === null || epochs === null) {
      const count = this.compiled.formulas.length
      memo = this.formulaValue = new Array<Value>(count).fill(null)
      epochs = this.formulaEpoch = new Array<number>(count).fill(0)
      this.formulaBusy = new Uint8Array(count)
    }
    if (epochs[index] === this.epoch) return memo[index]!
    const info = this.compiled.formulas[index]!
    const busy = this.formulaBusy!
    if (busy[index] === 1) {
      throw new EngineError('FORMULA_CYCLE', `The formula [[${info.name}]] depends on itself.`)
    }
    const expr = this.formulaOverride?.[index] ?? info.expr
    if (expr === null) throw info.error ?? new EngineError('UNKNOWN_FORMULA', `There is no formula named [[${info.name}]].`)
    busy[index] = 1
    let value: Value
    try {
      value = expr(this)
    } finally {
      busy[index] = 0
    }
    memo[index] = value
    epochs[index] = this.epoch
    return value
  }

  private runNodes(nodes: CompiledNode[]): number {
    for (let i = 0; i < nodes.length; i++) {
      const outcome = this.trace === null ? this.visit(nodes[i]!) : this.visitTraced(nodes[i]!)
      if (outcome !== CONTINUE) return outcome
    }
    return CONTINUE
  }

  private visitTraced(node: CompiledNode): number {
    const entry: TraceEntry = { nodeId: node.id, type: node.type, value: null, durationNs: 0 }
    this.trace!.push(entry)
    this.openEntry = entry
    const started = performance.now()
    try {
      return this.visit(node)
    } finally {
      entry.durationNs = Math.round((performance.now() - started) * 1e6)
    }
  }

  private report(value: Value): void {
    if (this.openEntry !== null) {
      this.openEntry.value = value
      this.openEntry = null
    }
  }

  private visit(node: CompiledNode): number {
    if (++this.steps > this.maxSteps) {
      throw new EngineError('STEP_LIMIT', `The run stopped after visiting ${this.maxSteps} nodes.`)
    }
    this.currentNode = node
    if (node.error !== null) throw node.error
    switch (node.kind) {
      case KIND_CONDITION: {
        const value = node.expr!(this)
        this.report(value)
        if (value !== true) return CONTINUE
        break
      }
      case KIND_ALWAYS:
        break
      case KIND_INPUT:
        if (!this.answer(node)) return STOP
        break
      case KIND_ASSIGN: {
        const value = node.expr!(this)
        this.report(value)
        this.values[node.slot] = value
        this.epoch++
        break
      }
      case KIND_FORMULA:
        this.formulaOverride ??= new Array<CompiledExpr | undefined>(this.compiled.formulas.length).fill(undefined)
        this.formulaOverride[node.slot] = node.expr!
        this.epoch++
        break
      case KIND_ADVICE:
        this.emit(node)
        break
      case KIND_CALL:
        if (this.call(node.called!) === STOP) return STOP
        break
      case KIND_EXIT:
        return EXIT_RULE
      case KIND_API:
        if (!this.fetch(node)) return STOP
        break
    }
    return node.children.length === 0 ? CONTINUE : this.runNodes(node.children)
  }

  private answer(node: CompiledNode): boolean {
    const slot = node.slot
    const info = this.compiled.variables[slot]!
    let value = this.values[slot]
    if (value === undefined && !info.isConstant && slot >= RESERVED_SLOTS) {
      const answer = this.coerceAnswer(info)
      if (answer instanceof EngineError) {
        this.focus(node, info, { code: answer.code, message: answer.message })
        return false
      }
      if (answer !== undefined) {
        this.values[slot] = answer
        value = answer
      }
    }
    if (value === undefined && info.isConstant) value = info.defaultValue
    if (value === undefined) {
      this.focus(node, info, undefined)
      return false
    }
    this.report(value)
    if (this.render) this.questionOf[slot] = node.id
    const question = this.render ? this.renderText(node.question, node) : node.question
    this.result.inputRequests.push(new AnsweredInput(node.id, node.ruleId, info.name, question, value, info))
    return true
  }

  private focus(node: CompiledNode, info: VariableSlot, error: { code: string; message: string } | undefined): void {
    this.result.currentFocus = {
      nodeId: node.id,
      ruleId: node.ruleId,
      variable: info.name,
      question: this.renderText(node.question, node),
      ...(info.dataType ? { dataType: info.dataType } : {}),
      ...(info.options ? { options: info.options } : {}),
      ...(info.defaultValue !== undefined ? { defaultValue: info.defaultValue } : {}),
      ...(error ? { error } : {}),
    }
  }

  private emit(node: CompiledNode): void {
    const advice = node.advice!
    let custom: string | undefined
    const headline = this.values[HEADLINE_SLOT]
    if (headline !== undefined && headline !== null && headline !== '') {
      // Headline_Custom replaces the headline of the next advice only, so one rule's override cannot leak.
      custom = valueToText(headline)
      this.values[HEADLINE_SLOT] = undefined
      this.epoch++
    }
    let item: AdviceItem = advice.decisionItem
    if (this.render) {
      item = {
        ...item,
        headline: this.renderText(custom ?? advice.headline, node),
        text: this.renderText(advice.text, node),
        ...(custom !== undefined ? { customHeadline: custom } : {}),
      }
    } else if (custom !== undefined) {
      item = { ...item, customHeadline: custom }
    }
    this.result[advice.group].push(item)
  }

  private call(rule: CompiledRule): number {
    const stack = this.callStack
    if (stack.includes(rule.id)) {
      const names = [...stack, rule.id].map((id) => `"${this.compiled.ruleById.get(id)?.name ?? id}"`)
      throw new EngineError('RULE_CALL_CYCLE', `Rule calls go round in a circle: ${names.join(' → ')}.`)
    }
    if (stack.length > this.maxCallDepth) {
      throw new EngineError('CALL_DEPTH', `Rule calls are nested more than ${this.maxCallDepth} deep.`)
    }
    stack.push(rule.id)
    const outcome = this.runNodes(rule.nodes)
    stack.pop()
    return outcome === STOP ? STOP : CONTINUE
  }

  private fetch(node: CompiledNode): boolean {
    const info = this.compiled.variables[node.slot]!
    const value = this.apiPort?.(node.apiId, {
      nodeId: node.id,
      apiId: node.apiId,
      variable: info.name,
      valueOf: (name) => this.valueOf(name),
    })
    if (value === undefined) {
      this.result.pendingApiCalls.push({ nodeId: node.id, ruleId: node.ruleId, apiId: node.apiId, variable: info.name })
      return false
    }
    this.report(value)
    this.values[node.slot] = value
    this.epoch++
    return true
  }

  private valueOf(name: string): Value | undefined {
    try {
      return this.lookup('variable', name)
    } catch (error) {
      if (error instanceof EngineError) return undefined
      throw error
    }
  }

  private resolveForContent(kind: 'variable' | 'formula', name: string): ResolvedTag | undefined {
    let value: Value
    try {
      value = this.lookup(kind, name)
    } catch (error) {
      if (error instanceof EngineError) return undefined
      throw error
    }
    if (kind === 'formula') {
      const info = this.compiled.formulas[this.compiled.formulaIndex.get(name)!]!
      return { value, formatted: formatSlot(value, info) }
    }
    const slot = this.compiled.variableIndex.get(name)!
    const questionNodeId = this.questionOf[slot]
    return {
      value,
      formatted: formatSlot(value, this.compiled.variables[slot]!),
      ...(questionNodeId !== undefined ? { questionNodeId } : {}),
    }
  }

  private renderText(template: string, node: CompiledNode): RenderedContent {
    if (template === '') return template
    const rendered = renderContent(
      template,
      this.contentType,
      this.resolveTag,
      this.options.questionHref ? { questionHref: this.options.questionHref } : undefined,
    )
    for (const tag of rendered.missing) {
      const written = tag.kind === 'variable' ? `{{${tag.name}}}` : `[[${tag.name}]]`
      this.result.errors.push({
        nodeId: node.id,
        ruleId: node.ruleId,
        code: 'UNDEFINED_IN_OUTPUT',
        message: `The text refers to ${written}, which has no value.`,
        ...(tag.kind === 'variable' ? { variable: tag.name } : {}),
      })
    }
    return rendered.body
  }

  private recordFailure(rule: CompiledRule, error: EngineError): void {
    const node = this.currentNode
    const unset = error.code === 'UNSET_VARIABLE' ? this.unsetName : undefined
    const reason = unset !== undefined ? `{{${unset}}} has no value` : error.message.replace(/\.$/, '')
    this.result.errors.push({
      nodeId: node?.id ?? rule.id,
      ruleId: rule.id,
      code: error.code === 'STEP_LIMIT' ? 'STEP_LIMIT' : 'INCOMPLETE_ADVICE',
      message: `Incomplete advice: the rule "${rule.name}" could not finish because ${lowerFirst(reason)}.`,
      ...(unset !== undefined ? { variable: unset } : {}),
      cause: { code: error.code, message: error.message },
    })
  }
}

function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text
}
