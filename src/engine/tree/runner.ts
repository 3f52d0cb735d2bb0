// One evaluation of a compiled advice set. The Run is the expressions' scope: it owns the variable values of this
// run, reads inputs lazily (coercing each once), computes formulas on demand with a memo that a write to a
// variable they read invalidates (formula-memo.ts), and runs the rules' flat programs (program.ts). A decision
// takes about a microsecond, so the hot path allocates nothing but the result and the run's values.
import { fillHtml, htmlTemplate, renderContent, renderValues } from '../content/index.ts'
import { RunResolvedTag } from '../content/resolved.ts'
import type { ContentType, RenderedContent, RenderOptions, ResolvedTag } from '../content/index.ts'
import type { TemplateTag } from '../template/index.ts'
import { EngineError } from '../errors.ts'
import type { RefKind } from '../expr/ast.ts'
import { valueToText } from '../value.ts'
import type { Value } from '../value.ts'
import * as kinds from './compiled.ts'
import type { AdviceItem, CompiledAdviceSet, CompiledNode, CompiledRule, ContentBody, SlotScope, VariableSlot } from './compiled.ts'
import * as programs from './program.ts'
import { ruleProgram } from './program.ts'
import type { Program } from './program.ts'
import * as plans from './condition-plan.ts'
import { lowestRule, pieceIn } from './range-table.ts'
import { coerceAnswer } from './inputs.ts'
import { isApiFailure, type ApiPort, type EvaluateOptions } from './options.ts'
import { FormulaMemo } from './formula-memo.ts'
import { AnsweredInput, EngineResult, formatSlot } from './result.ts'
import { Tracer } from './tracer.ts'
import { Explainer } from './explainer.ts'
import { bindText, FORMULA_REF, NO_REF, type BoundText } from './bound-text.ts'
import * as slots from './slots.ts'

// Opcodes as one object that runProgram destructures into locals once per call, so its dispatch compares
// against values already at hand.
const OPCODES = Object.freeze({
  condition: kinds.KIND_CONDITION,
  input: kinds.KIND_INPUT,
  assign: kinds.KIND_ASSIGN,
  formula: kinds.KIND_FORMULA,
  advice: kinds.KIND_ADVICE,
  call: kinds.KIND_CALL,
  exit: kinds.KIND_EXIT,
  api: kinds.KIND_API,
  broken: kinds.KIND_BROKEN,
  atom: programs.OP_ATOM,
  table: programs.OP_TABLE,
})
const CONTEXT_SLOT = slots.CONTEXT_SLOT
const EXAMPLE_NUMBER_SLOT = slots.EXAMPLE_NUMBER_SLOT
const HEADLINE_SLOT = slots.HEADLINE_SLOT
const API_KEY_OWNER_SLOT = slots.API_KEY_OWNER_SLOT
const DATA_API_SOURCES_SLOT = slots.DATA_API_SOURCES_SLOT
const RESERVED_SLOTS = slots.RESERVED_SLOTS

const CONTINUE = 0
const STOP = 2
/** Thrown by an API Call whose answer is not known yet, to leave its rule. */
const API_PENDING = 'API_PENDING'

/** check() found a value of a kind the plan does not decide. */
const UNDECIDED = 2

/**
 * One planned check (condition-plan.ts) on value `a`: true, false, or UNDECIDED when `a` is not of the kind
 * the check is for. Small and monomorphic so the runner's loop inlines it.
 */
function check(op: number, a: Value, constant: string | number | boolean | null, low: number, high: number): boolean | typeof UNDECIDED {
  switch (op) {
    case RANGE:
      return typeof a === 'number' ? a >= low && a <= high : UNDECIDED
    case NE_NUMBER:
      return typeof a === 'number' ? a !== constant : UNDECIDED
    case EQ_TEXT:
      return typeof a === 'string' ? a === constant : UNDECIDED
    case NE_TEXT:
      return typeof a === 'string' ? a !== constant : UNDECIDED
    case EQ_BOOLEAN:
      return typeof a === 'boolean' ? a === constant : UNDECIDED
    case NE_BOOLEAN:
      return typeof a === 'boolean' ? a !== constant : UNDECIDED
    case IS_TRUE:
      return a === true ? true : a === false || a === null ? false : UNDECIDED
    case IS_FALSE:
      return a === true ? false : a === false || a === null ? true : UNDECIDED
    default:
      return UNDECIDED
  }
}

const OP_RANGE = programs.OP_ATOM + plans.PLAN_RANGE
const OP_EQ_TEXT = programs.OP_ATOM + plans.PLAN_EQ_TEXT

/**
 * Consecutive planned checks of the two common kinds (a number in a range, text equal to a constant), following
 * each one's jump; returns at the first instruction it does not decide. A plain function of the program's arrays:
 * as a method of Run the same loop measured twice as slow (bench:engine).
 */
function runChecks(ops: number[], ends: number[], slots: number[], bounds: number[], constants: Array<number | string | boolean | null>, values: Array<Value | undefined>, start: number, stop: number): number {
  let pc = start
  while (pc < stop) {
    const op = ops[pc]!
    if (op === OP_RANGE) {
      const a = values[slots[pc]!]
      if (typeof a !== 'number') return pc
      pc = a >= bounds[2 * pc]! && a <= bounds[2 * pc + 1]! ? pc + 1 : ends[pc]!
    } else if (op === OP_EQ_TEXT) {
      const a = values[slots[pc]!]
      if (typeof a !== 'string') return pc
      pc = a === constants[pc] ? pc + 1 : ends[pc]!
    } else return pc
  }
  return pc
}
const RANGE = plans.PLAN_RANGE
const NE_NUMBER = plans.PLAN_NE_NUMBER
const EQ_TEXT = plans.PLAN_EQ_TEXT
const NE_TEXT = plans.PLAN_NE_TEXT
const EQ_BOOLEAN = plans.PLAN_EQ_BOOLEAN
const NE_BOOLEAN = plans.PLAN_NE_BOOLEAN
const IS_TRUE = plans.PLAN_IS_TRUE
const IS_FALSE = plans.PLAN_IS_FALSE

/** Full-response mode only: what rendering needs beyond the values. */
class ContentState {
  /** Scratch: the resolved tags of the text being rendered, by tag occurrence. */
  readonly tagValues: Array<ResolvedTag | undefined> = []
  /** The input request that set each variable (for backlinks). */
  readonly questionOf: Array<string | undefined>
  /**
   * Each variable's latest resolved tag (value, formatted value, backlink, chip), reused while the variable holds
   * the same value from the same question: a rule that assigns a variable often assigns it what it already was.
   */
  readonly resolvedOf: Array<ResolvedTag | undefined>

  constructor(
    count: number,
    readonly contentType: ContentType,
    /** Passed to every render; built once per run. */
    readonly renderOptions: RenderOptions | undefined,
    /** Resolves a tag by name, for texts made during the run (Headline_Custom's value). */
    readonly resolve: (kind: 'variable' | 'formula', name: string) => ResolvedTag | undefined,
  ) {
    this.questionOf = new Array<string | undefined>(count).fill(undefined)
    this.resolvedOf = new Array<ResolvedTag | undefined>(count).fill(undefined)
  }
}

/**
 * A full response's advice item. A class, not an object literal: a run on a big set keeps hundreds alive through
 * young-generation collections, and V8 then allocates a literal's later objects straight in the old generation
 * (allocation-site pretenuring), which doubled the 5,000-node set's cost per item in bench:engine; `new` has no such
 * site.
 */
class RenderedItem implements AdviceItem {
  constructor(
    readonly nodeId: string,
    readonly ruleId: string,
    readonly tags: readonly string[],
    readonly sources: AdviceItem['sources'],
    readonly headline: ContentBody,
    readonly text: ContentBody,
  ) {}
}

class CustomHeadlineItem extends RenderedItem {
  constructor(item: AdviceItem, headline: ContentBody, text: ContentBody, readonly customHeadline: string) {
    super(item.nodeId, item.ruleId, item.tags, item.sources, headline, text)
  }
}

const DEFAULT_MAX_STEPS = 100_000
const DEFAULT_MAX_CALL_DEPTH = 32
const NO_SOURCES: Value[] = Object.freeze([]) as unknown as Value[]
const NO_TAGS: ReadonlyArray<ResolvedTag | undefined> = Object.freeze([])
const NO_MASKS: Int32Array = new Int32Array(0)

export class Run implements SlotScope {
  private readonly values: Array<Value | undefined>
  private nowValue: Date | undefined
  private readonly content: ContentState | null
  private formulas: FormulaMemo | null = null
  /** Bumped by every write, so memoised formulas know they may be stale. */
  private epoch = 1
  /** While a formula is computed: the variable slots it has read so far. */
  private reading: number[] | null = null
  private steps = 0
  private readonly maxSteps: number
  /** While rule calls run: the top-level rule, then each called rule; created on the first call. */
  private callStack: string[] | null = null
  private readonly tracer: Tracer | null
  /** Set when the run explains itself (options.explain): fed from the tracer's path and the value writes. */
  private readonly explainer: Explainer | null
  /** Conditions the trace records (all of them when explaining: the explainer needs each one decided in full). */
  private readonly traceOnly: ReadonlySet<string> | undefined
  private currentNode: CompiledNode | null = null
  /** Advice nodes of called rules emitted so far (CompiledAdvice.mayRepeat); made on the first such emit. */
  private emitted: Set<CompiledNode> | null = null
  private unsetName = ''
  private readonly result: EngineResult

  constructor(
    private readonly compiled: CompiledAdviceSet,
    private readonly inputs: Record<string, unknown>,
    private readonly options: EvaluateOptions,
  ) {
    this.nowValue = options.now
    this.maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS
    const explain = options.explain === true
    this.traceOnly = explain ? undefined : options.traceOnly
    this.tracer = options.trace === true || options.trace === 'visits' || explain ? new Tracer(options.trace === true, this.traceOnly) : null
    this.explainer = explain ? new Explainer(compiled, inputs, this) : null
    this.values = compiled.blankValues.slice()
    this.content =
      options.render !== false
        ? new ContentState(
            compiled.variables.length,
            options.contentType ?? 'text',
            options.questionHref ? { questionHref: options.questionHref } : undefined,
            (kind, name) => this.resolveForContent(kind, name),
          )
        : null
    const context = options.context ?? 'run'
    this.values[CONTEXT_SLOT] = context
    if (context === 'examples') this.values[EXAMPLE_NUMBER_SLOT] = options.exampleNumber ?? 1
    if (options.apiKeyOwnerId !== undefined) this.values[API_KEY_OWNER_SLOT] = options.apiKeyOwnerId
    this.values[DATA_API_SOURCES_SLOT] = options.dataApiSources ? [...options.dataApiSources] : NO_SOURCES
    this.result = new EngineResult(compiled, this.values, context, this.content?.resolvedOf)
    this.result.formulaSource = this
    if (this.tracer && options.trace !== undefined && options.trace !== false) this.result.trace = this.tracer.entries
    if (this.explainer) this.result.explanation = this.explainer
  }

  /** The moment of the run; read by today() and date maths, so only then is the clock consulted. */
  get now(): Date {
    this.nowValue ??= new Date()
    return this.nowValue
  }

  execute(): EngineResult {
    const program = this.compiled.program
    let pc = 0
    // The try sits outside the loop (re-entered after a failure) so the per-node path sets up no handler.
    for (;;) {
      try {
        this.runProgram(program, pc)
        return this.result
      } catch (error) {
        if (!(error instanceof EngineError)) throw error
        this.tracer?.leave(null)
        this.explainer?.reset()
        const stack = this.callStack
        const ruleId = stack !== null && stack.length > 0 ? stack[0]! : this.currentNode!.ruleId
        // A pending API call skips the rest of its rule without an error: the caller answers it and runs again.
        if (error.code !== API_PENDING) this.recordFailure(this.compiled.ruleById.get(ruleId)!, error)
        if (error.code === 'STEP_LIMIT') return this.result
        if (stack !== null) stack.length = 0
        pc = this.compiled.ruleEnds.get(ruleId)!
      }
    }
  }

  lookup(kind: RefKind, name: string): Value {
    if (kind === 'formula' || (kind === 'bare' && this.compiled.bareFormulas.has(name))) {
      const index = this.compiled.formulaIndex.get(name)
      if (index === undefined) throw new EngineError('UNKNOWN_FORMULA', `There is no formula named [[${name}]].`)
      return this.formula(index)
    }
    const slot = this.compiled.variableIndex.get(name)
    return slot === undefined ? this.unset(name) : this.variable(slot)
  }

  variable(slot: number): Value {
    if (this.reading !== null) this.reading.push(slot)
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
      const answer = coerceAnswer(info, this.inputs)
      if (answer !== undefined) {
        // Values are primitives, dates or lists; only an object can be the error.
        if (typeof answer === 'object' && answer instanceof EngineError) throw answer
        this.values[slot] = answer
        return answer
      }
    }
    if (info.defaultValue !== undefined) return info.defaultValue
    return this.unset(info.name)
  }

  formula(index: number): Value {
    const memo = (this.formulas ??= this.newFormulaMemo())
    const outer = this.reading
    if (this.isCurrent(memo, index)) {
      if (outer !== null) for (const slot of memo.reads[index]!) outer.push(slot)
      return memo.values[index]!
    }
    const info = this.compiled.formulas[index]!
    if (memo.busy[index] === 1) {
      throw new EngineError('FORMULA_CYCLE', `The formula [[${info.name}]] depends on itself.`)
    }
    const expr = memo.overrides[index] ?? info.expr
    if (expr === null) throw info.error ?? new EngineError('UNKNOWN_FORMULA', `There is no formula named [[${info.name}]].`)
    memo.busy[index] = 1
    const reads: number[] = []
    this.reading = reads
    let value: Value
    try {
      value = expr(this)
    } finally {
      memo.busy[index] = 0
      this.reading = outer
    }
    if (outer !== null) for (const slot of reads) outer.push(slot)
    memo.values[index] = value
    memo.epochs[index] = this.epoch
    memo.reads[index] = reads
    memo.resolved[index] = undefined
    return value
  }

  /**
   * A formula's value as the run stands, for reports (the trace, the result's formulas), or undefined when it cannot
   * be computed. Reporting must not change the run: answers the formula coerces on the way are put back unread (the
   * memo may keep the value: those answers give the same values when the run reads them itself).
   */
  peekFormula(index: number): Value | undefined {
    const values = this.values
    const before = values.slice()
    try {
      return this.valueOrMissing(true, index)
    } finally {
      for (let slot = 0; slot < before.length; slot++) values[slot] = before[slot]
    }
  }

  /** A variable's value as the run stands, or undefined when it has none; reading it changes nothing (explanations). */
  peekVariable(slot: number): Value | undefined {
    const value = this.values[slot]
    if (value !== undefined) return value
    const info = this.compiled.variables[slot]!
    if (!info.isConstant && slot >= RESERVED_SLOTS) {
      const answer = coerceAnswer(info, this.inputs)
      if (answer instanceof EngineError) return undefined
      if (answer !== undefined) return answer
    }
    return info.defaultValue
  }

  /**
   * A memoised value stays current until a variable it read is written or a formula is redefined: a formula is
   * an expression of the variables it reads (and the run's fixed clock), so the same reads give the same value.
   */
  private isCurrent(memo: FormulaMemo, index: number): boolean {
    const computedAt = memo.epochs[index]!
    if (computedAt === 0 || computedAt < memo.overriddenAt) return false
    for (const slot of memo.reads[index]!) if (memo.writtenAt[slot]! > computedAt) return false
    return true
  }

  private newFormulaMemo(): FormulaMemo {
    return new FormulaMemo(this.compiled.formulas.length, this.compiled.variables.length)
  }

  private write(slot: number, value: Value | undefined): void {
    this.values[slot] = value
    this.epoch++
    // Writes before the first formula read need no record: every value is computed after them.
    if (this.formulas !== null) this.formulas.writtenAt[slot] = this.epoch
  }

  /**
   * Runs a program (program.ts) from `start`: a false condition or comparison jumps past its subtree, an exit
   * goes on after its rule. Returns STOP when the run must stop (an open question or a pending API call).
   */
  private runProgram(program: Program, start: number): number {
    const ops = program.ops
    const nodes = program.nodes
    const ends = program.ends
    const nexts = program.nexts
    const slots = program.slots
    const bounds = program.bounds
    const constants = program.constants
    const count = ops.length
    const values = this.values
    const tracer = this.tracer
    // Conditions the trace does not record take the fast path below, as in an untraced run.
    const traceOnly = this.traceOnly
    const { condition, input, assign, formula, advice, call, exit, api, broken, atom, table } = OPCODES
    let pc = start
    // Inside a range table (range-table.ts): the rules still to enter are the bits of words `word` (the rest of
    // word `wordIndex`) and `wordIndex + 1` up to `words` of the pieces at firstMasks[firstAt…] and
    // secondMasks[secondAt…] anded; the rule being run ends at `stop`, where the next one is entered.
    let firstMasks = NO_MASKS
    let secondMasks = NO_MASKS
    let firstAt = 0
    let secondAt = 0
    let entries = NO_MASKS
    let stops = NO_MASKS
    let word = 0
    let wordIndex = 0
    let words = 0
    let tableEnd = 0
    let stop = count
    while (pc < count) {
      if (pc === stop) {
        while (word === 0 && ++wordIndex < words) word = firstMasks[firstAt + wordIndex]! & secondMasks[secondAt + wordIndex]!
        if (word === 0) {
          pc = tableEnd
          stop = count
          continue
        }
        const rule = lowestRule(word, wordIndex)
        word &= word - 1
        pc = entries[rule]!
        stop = stops[rule]!
      }
      // Untraced runs decide chains of planned checks in one tight loop, the hottest code of a run. It stops at
      // what it cannot decide on its own: a value not read yet (read below), another kind of check or value.
      if (tracer === null && ops[pc]! >= atom) {
        pc = runChecks(ops, ends, slots, bounds, constants, values, pc, stop)
        if (pc === stop) continue
      }
      const op = ops[pc]!
      if (op === table) {
        const index = program.tables[pc]!
        // Traced runs check every rule, so the trace shows each band's outcome.
        if (tracer !== null) {
          pc++
          continue
        }
        const first = index.first
        let a = values[first.slot]
        if (a === undefined) {
          // Read as the first rule's band would read it, so a missing or bad answer fails that rule as it would.
          this.currentNode = nodes[pc]!
          a = this.fromInputs(first.slot)
        }
        if (typeof a !== 'number') {
          pc++
          continue
        }
        words = index.words
        firstMasks = first.masks
        firstAt = pieceIn(first, a) * words
        let lowest = 0
        while (lowest < words && firstMasks[firstAt + lowest] === 0) lowest++
        // NaN passes no band.
        if (lowest === words || a !== a) {
          pc = index.end
          continue
        }
        secondMasks = index.everyRule
        secondAt = 0
        entries = index.pastFirst
        const second = index.second
        if (second !== null) {
          let b = values[second.slot]
          if (b === undefined) {
            // Read when the first rule entered reads it, just past its first band.
            this.currentNode = nodes[index.pastFirst[lowestRule(firstMasks[firstAt + lowest]!, lowest)]!]!
            b = this.fromInputs(second.slot)
          }
          if (typeof b === 'number') {
            if (b !== b) {
              pc = index.end
              continue
            }
            secondMasks = second.masks
            secondAt = pieceIn(second, b) * words
            entries = index.pastBoth
          }
        }
        stops = index.stops
        tableEnd = index.end
        word = 0
        wordIndex = -1
        // The loop's head enters the first rule.
        stop = pc
        continue
      }
      if (op >= atom) {
        if (tracer !== null && (traceOnly === undefined || traceOnly.has(nodes[pc]!.id))) {
          pc = this.tracedCondition(tracer, program, pc)
          continue
        }
        const slot = slots[pc]!
        let a = values[slot]
        if (a === undefined) {
          this.currentNode = nodes[pc]!
          a = this.fromInputs(slot)
        }
        const holds = check(op - atom, a, constants[pc]!, bounds[2 * pc]!, bounds[2 * pc + 1]!)
        if (holds !== UNDECIDED) {
          pc = holds ? pc + 1 : ends[pc]!
          continue
        }
        // A value the plan does not cover: the compiled expression decides the whole condition.
        const node = nodes[pc]!
        this.currentNode = node
        pc = node.expr!(this) === true ? nexts[pc]! : ends[pc]!
        continue
      }
      const node = nodes[pc]!
      this.currentNode = node
      if (tracer !== null) tracer.enter(program, pc, node)
      if (op === condition) {
        const value = node.expr!(this)
        this.report(value)
        if (this.explainer !== null) this.explainer.decided(node, value)
        pc = value === true ? pc + 1 : ends[pc]!
        continue
      }
      if (++this.steps > this.maxSteps) this.stepLimit()
      switch (op) {
        case input:
          if (!this.answer(node)) return this.leave(program, STOP)
          break
        case assign: {
          const value = node.expr!(this)
          this.report(value)
          this.write(node.slot, value)
          if (this.explainer !== null) this.explainer.assigned(node.slot, node)
          break
        }
        case formula: {
          // A node of its own expression (saved before formulas lived only in the dictionary) redefines the formula.
          if (node.expr !== null) {
            const memo = (this.formulas ??= this.newFormulaMemo())
            memo.overrides[node.slot] = node.expr
            memo.overriddenAt = ++this.epoch
          }
          if (tracer !== null) this.report(this.peekFormula(node.slot) ?? null)
          break
        }
        case advice:
          this.emit(node)
          break
        case call:
          if (this.call(node.called!) === STOP) return this.leave(program, STOP)
          break
        case exit:
          pc = nexts[pc]!
          continue
        case api:
          this.fetch(node)
          break
        case broken:
          throw node.error!
      }
      pc++
    }
    return this.leave(program, CONTINUE)
  }

  /** Traced runs check a planned condition in one call, so its value can be reported; returns where to go on. */
  private tracedCondition(tracer: Tracer, program: Program, pc: number): number {
    const node = program.nodes[pc]!
    this.currentNode = node
    tracer.enter(program, pc, node)
    const value = this.test(node)
    tracer.report(value)
    if (this.explainer !== null) this.explainer.decided(node, value)
    return value === true ? program.nexts[pc]! : program.ends[pc]!
  }

  private stepLimit(): never {
    throw new EngineError('STEP_LIMIT', `The run stopped after ${this.maxSteps} steps; rule calls repeat too much work.`)
  }

  /** The program is left with `outcome`; a trace closes its open entries. */
  private leave(program: Program, outcome: number): number {
    this.tracer?.leave(program)
    return outcome
  }

  private report(value: Value): void {
    this.tracer?.report(value)
  }

  /**
   * A planned condition in one call (traced runs): each check in order, stopping at the first false one. Values
   * the plan does not cover are handed to the compiled expression, which then decides the whole condition.
   */
  private test(node: CompiledNode): Value {
    const { slots: planSlots, ops, lows, highs, constants } = node.plan!
    const values = this.values
    for (let i = 0; i < planSlots.length; i++) {
      const slot = planSlots[i]!
      let a = values[slot]
      if (a === undefined) a = this.fromInputs(slot)
      const holds = check(ops[i]!, a, constants[i]!, lows[i]!, highs[i]!)
      if (holds === UNDECIDED) return node.expr!(this)
      if (!holds) return false
    }
    return true
  }

  private answer(node: CompiledNode): boolean {
    const slot = node.slot
    const info = this.compiled.variables[slot]!
    let value = this.values[slot]
    if (value === undefined && !info.isConstant && slot >= RESERVED_SLOTS) {
      const answer = coerceAnswer(info, this.inputs)
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
    if (this.explainer !== null) this.explainer.answered(slot, node)
    let question: ContentBody = node.question
    if (this.content !== null) {
      this.content.questionOf[slot] = node.id
      question = this.renderText((node.boundQuestion ??= bindText(node.question, this.compiled)), node)
    }
    this.result.addInput(new AnsweredInput(node.id, node.ruleId, info.name, question, value, info))
    return true
  }

  private focus(node: CompiledNode, info: VariableSlot, error: { code: string; message: string } | undefined): void {
    this.explainer?.focused(node)
    this.result.currentFocus = {
      nodeId: node.id,
      ruleId: node.ruleId,
      variable: info.name,
      question: this.focusQuestion(node),
      ...(info.dataType ? { dataType: info.dataType } : {}),
      ...(info.options ? { options: info.options } : {}),
      ...(info.defaultValue !== undefined ? { defaultValue: info.defaultValue } : {}),
      ...(error ? { error } : {}),
    }
  }

  /** The open question. A decision-mode run renders it too, without the content caches a full response keeps. */
  private focusQuestion(node: CompiledNode): ContentBody {
    if (this.content !== null) return this.renderText((node.boundQuestion ??= bindText(node.question, this.compiled)), node)
    if (node.question === '') return ''
    const resolve = (kind: 'variable' | 'formula', name: string): ResolvedTag | undefined => this.resolveUncached(kind, name)
    return this.reportMissing(renderContent(node.question, this.options.contentType ?? 'text', resolve), node)
  }

  private resolveUncached(kind: 'variable' | 'formula', name: string): ResolvedTag | undefined {
    const isFormula = kind === 'formula'
    const index = (isFormula ? this.compiled.formulaIndex : this.compiled.variableIndex).get(name)
    const value = index === undefined ? undefined : this.valueOrMissing(isFormula, index)
    if (value === undefined) return undefined
    return { value, formatted: formatSlot(value, isFormula ? this.compiled.formulas[index!]! : this.compiled.variables[index!]!) }
  }

  private emit(node: CompiledNode): void {
    const advice = node.advice!
    let custom: string | undefined
    const headline = this.values[HEADLINE_SLOT]
    if (headline !== undefined && headline !== null && headline !== '') {
      // Headline_Custom replaces the headline of the next advice only, so one rule's override cannot leak.
      custom = valueToText(headline)
      this.write(HEADLINE_SLOT, undefined)
    }
    if (advice.mayRepeat) {
      // One run gives each advice once, however often its rule runs (on its own and called, or called twice).
      const emitted = (this.emitted ??= new Set())
      if (emitted.has(node)) return
      emitted.add(node)
    }
    let item: AdviceItem = advice.decisionItem
    if (this.content !== null) {
      const headlineBody = custom === undefined ? this.renderText((advice.boundHeadline ??= bindText(advice.headline, this.compiled)), node) : this.renderDynamicText(custom, node)
      const textBody = this.renderText((advice.boundText ??= bindText(advice.text, this.compiled)), node)
      item =
        custom === undefined
          ? new RenderedItem(item.nodeId, item.ruleId, item.tags, item.sources, headlineBody, textBody)
          : new CustomHeadlineItem(item, headlineBody, textBody, custom)
    } else {
      if (this.options.checkTags === true) this.checkTags(advice, node, custom)
      if (custom !== undefined) item = { ...item, customHeadline: custom }
    }
    this.result.addItem(advice.group, item)
    if (this.explainer !== null) this.explainer.emitted(node)
  }

  private call(rule: CompiledRule): number {
    // The stack holds the top-level rule first while any call is running.
    const stack = (this.callStack ??= [])
    if (stack.length === 0) stack.push(this.currentNode!.ruleId)
    if (stack.includes(rule.id)) {
      const names = [...stack, rule.id].map((id) => `"${this.compiled.ruleById.get(id)?.name ?? id}"`)
      throw new EngineError('RULE_CALL_CYCLE', `Rule calls go round in a circle: ${names.join(' → ')}.`)
    }
    const maxDepth = this.options.maxCallDepth ?? DEFAULT_MAX_CALL_DEPTH
    if (stack.length > maxDepth) {
      throw new EngineError('CALL_DEPTH', `Rule calls are nested more than ${maxDepth} deep.`)
    }
    stack.push(rule.id)
    this.explainer?.enterCall(this.currentNode!)
    // Laid out on first use: most rules are never called, and the compiled set is complete by now.
    rule.program ??= ruleProgram(rule.nodes)
    const outcome = this.runProgram(rule.program, 0)
    this.explainer?.leaveCall()
    stack.pop()
    if (stack.length === 1) stack.pop()
    return outcome
  }

  /** Writes the port's answer to the node's variable; a failure or a pending answer leaves the rule (execute()). */
  private fetch(node: CompiledNode): void {
    const info = this.compiled.variables[node.slot]!
    const port: ApiPort | undefined = this.options.apiPort
    const answer = port?.(node.apiId, {
      nodeId: node.id,
      apiId: node.apiId,
      variable: info.name,
      valueOf: (name) => this.valueOf(name),
      useSource: (entry) => this.useSource(entry),
    })
    if (answer === undefined) {
      this.result.addPendingApiCall({ nodeId: node.id, ruleId: node.ruleId, apiId: node.apiId, variable: info.name })
      throw new EngineError(API_PENDING, `The answer of ${node.apiId} is not known yet.`)
    }
    if (isApiFailure(answer)) throw new EngineError(answer.failure.code, answer.failure.message)
    this.report(answer)
    this.write(node.slot, answer)
    if (this.explainer !== null) this.explainer.fetched(node.slot, node)
  }

  private useSource(entry: string): void {
    const sources = this.values[DATA_API_SOURCES_SLOT] as Value[]
    if (!sources.includes(entry)) this.write(DATA_API_SOURCES_SLOT, [...sources, entry])
  }

  private valueOf(name: string): Value | undefined {
    const slot = this.compiled.variableIndex.get(name)
    return slot === undefined ? undefined : this.valueOrMissing(false, slot)
  }

  /** A variable's or formula's value, or undefined when it has none (unset, or its formula failed). */
  private valueOrMissing(isFormula: boolean, index: number): Value | undefined {
    try {
      return isFormula ? this.formula(index) : this.variable(index)
    } catch (error) {
      if (error instanceof EngineError) return undefined
      throw error
    }
  }

  /** A tag named in a text made during the run: bound as a compiled text's tags are, then resolved the same way. */
  private resolveForContent(kind: 'variable' | 'formula', name: string): ResolvedTag | undefined {
    if (kind === 'formula') {
      const index = this.compiled.formulaIndex.get(name)
      return index === undefined ? undefined : this.resolveFormula(index)
    }
    const slot = this.compiled.variableIndex.get(name)
    return slot === undefined ? undefined : this.resolveVariable(slot)
  }

  /** A variable's value for content, resolved again only when its value or its question changed (resolvedOf). */
  private resolveVariable(slot: number): ResolvedTag | undefined {
    const content = this.content!
    const value = this.valueOrMissing(false, slot)
    if (value === undefined) return undefined
    const questionNodeId = content.questionOf[slot]
    const cached = content.resolvedOf[slot]
    if (cached !== undefined && cached.value === value && cached.questionNodeId === questionNodeId) return cached
    const formatted = formatSlot(value, this.compiled.variables[slot]!)
    const resolved = new RunResolvedTag(value, formatted, questionNodeId)
    content.resolvedOf[slot] = resolved
    return resolved
  }

  /** A formula's value for content: kept in the formula memo beside the value, until the value is computed again. */
  private resolveFormula(index: number): ResolvedTag | undefined {
    const value = this.valueOrMissing(true, index)
    if (value === undefined) return undefined
    const memo = this.formulas!
    return (memo.resolved[index] ??= new RunResolvedTag(value, formatSlot(value, this.compiled.formulas[index]!), undefined))
  }

  /**
   * A text of the compiled set. Its tags are resolved through their bound slots (a tag named twice finds its value
   * cached the second time); a tag without a value is reported once as an error of the node and shown as missing.
   */
  private renderText(text: BoundText, node: CompiledNode): ContentBody {
    const refs = text.refs
    const content = this.content!
    if (refs.length === 0) return text.prepared.text === '' ? '' : renderValues(text.prepared, content.contentType, NO_TAGS, content.renderOptions)
    // Filled per text and read only while it renders, so one array serves the whole run.
    const values = content.tagValues
    for (let i = 0; i < refs.length; i++) {
      const ref = refs[i]!
      const resolved = ref >= 0 ? this.resolveVariable(ref) : ref === NO_REF ? undefined : this.resolveFormula(FORMULA_REF - ref)
      if (resolved === undefined && text.firstOf[i]! < 0) this.reportMissingTag(text.prepared.tags[i]!, node)
      values[i] = resolved
    }
    // Html, the Advice API's usual type, skips the generic dispatch: its template is kept on the text.
    if (content.contentType === 'html') return fillHtml((text.html ??= htmlTemplate(text.prepared)), values, true, content.renderOptions?.questionHref)
    return renderValues(text.prepared, content.contentType, values, content.renderOptions)
  }

  /** Decision mode's checkTags: the tags of an item's headline (or custom headline) and text that have no value. */
  private checkTags(advice: NonNullable<CompiledNode['advice']>, node: CompiledNode, custom: string | undefined): void {
    if (custom === undefined) this.checkBound((advice.boundHeadline ??= bindText(advice.headline, this.compiled)), node)
    else if (custom !== '') this.reportMissing(renderContent(custom, 'text', (kind, name) => this.resolveUncached(kind, name)), node)
    this.checkBound((advice.boundText ??= bindText(advice.text, this.compiled)), node)
  }

  /** Reports a bound text's tags without a value, each once, as renderText does. */
  private checkBound(text: BoundText, node: CompiledNode): void {
    const refs = text.refs
    for (let i = 0; i < refs.length; i++) {
      if (text.firstOf[i]! >= 0) continue
      const ref = refs[i]!
      const value = ref >= 0 ? this.valueOrMissing(false, ref) : ref === NO_REF ? undefined : this.valueOrMissing(true, FORMULA_REF - ref)
      if (value === undefined) this.reportMissingTag(text.prepared.tags[i]!, node)
    }
  }

  /** A text made during the run (Headline_Custom's value): prepared through the engine's bounded memo. */
  private renderDynamicText(template: string, node: CompiledNode): ContentBody {
    if (template === '') return template
    const content = this.content!
    return this.reportMissing(renderContent(template, content.contentType, content.resolve, content.renderOptions), node)
  }

  private reportMissing(rendered: RenderedContent, node: CompiledNode): ContentBody {
    for (const tag of rendered.missing) this.reportMissingTag(tag, node)
    return rendered.body
  }

  private reportMissingTag(tag: TemplateTag, node: CompiledNode): void {
    const written = tag.kind === 'variable' ? `{{${tag.name}}}` : `[[${tag.name}]]`
    this.result.addError({
      nodeId: node.id,
      ruleId: node.ruleId,
      code: 'UNDEFINED_IN_OUTPUT',
      message: `The text refers to ${written}, which has no value.`,
      ...(tag.kind === 'variable' ? { variable: tag.name } : {}),
    })
  }

  private recordFailure(rule: CompiledRule, error: EngineError): void {
    const node = this.currentNode
    const unset = error.code === 'UNSET_VARIABLE' ? this.unsetName : undefined
    // The engine's messages are sentences of their own ("Cannot divide by zero."), so the reason follows as one.
    const reason = unset !== undefined ? `{{${unset}}} has no value.` : asSentence(error.message)
    this.result.addError({
      nodeId: node?.id ?? rule.id,
      ruleId: rule.id,
      code: error.code === 'STEP_LIMIT' ? 'STEP_LIMIT' : 'INCOMPLETE_ADVICE',
      message: `Incomplete advice: the rule "${rule.name}" could not finish. ${reason}`,
      ...(unset !== undefined ? { variable: unset } : {}),
      cause: { code: error.code, message: error.message },
    })
  }
}

function asSentence(text: string): string {
  const trimmed = text.trim()
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`
}
