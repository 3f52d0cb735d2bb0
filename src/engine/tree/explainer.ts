// Why a run gave what it gave (EvaluateOptions.explain): the runner reports to the Explainer each condition it
// decides (through the tracer's path, so no second evaluator exists), each value it sets and each Rule Call it enters.
// The Explainer keeps, per condition, its latest evaluation with the values of the variables and formulas it read, and
// where each value came from; when an advice node is emitted or a question becomes the focus, the conditions from
// its rule's root (through the Rule Calls that are running) are its reasons.
import { references } from '../expr/references.ts'
import type { Value } from '../value.ts'
import { KIND_ALWAYS, KIND_CALL, KIND_CONDITION, type CompiledAdviceSet, type CompiledNode } from './compiled.ts'
import { ancestorsOf } from './ancestors.ts'
import { formatSlot } from './result.ts'
import { RESERVED_SLOTS } from './slots.ts'

/** Where a value read by a condition came from. */
export type ValueOrigin =
  | { kind: 'answer'; nodeId: string }
  | { kind: 'input' }
  | { kind: 'assignment'; nodeId: string; expression: string }
  | { kind: 'api'; nodeId: string; apiId: string }
  | { kind: 'default' }
  | { kind: 'constant' }
  | { kind: 'system' }
  | { kind: 'formula'; expression: string }
  | { kind: 'unset' }

/** A variable or formula a condition read, as it stood when the condition was decided. */
export interface ReasonRead {
  kind: 'variable' | 'formula'
  name: string
  /** null when it had no value (unset, or its formula could not be computed). */
  value: Value
  valueFormatted: string
  from: ValueOrigin
}

/** One step from a rule's root to an item: a condition that held, an Always, or the Rule Call that ran the rule. */
export interface Reason {
  nodeId: string
  ruleId: string
  type: 'condition' | 'conditionAlways' | 'ruleCall'
  /** Conditions: the expression as written. */
  expression?: string
  /** Conditions: the value the expression gave (true on a path that was taken); Always and calls: true. */
  result: Value
  /** Conditions: what the expression read, in order of first mention. */
  reads: ReasonRead[]
  /** Rule Calls: the rule called. */
  calledRule?: { id: string; name: string }
}

/** A condition's evaluation as the run decided it. */
export interface Evaluation {
  result: Value
  reads: ReasonRead[]
}

/** What the Explainer needs of the run: values as they stand, without changing the run. */
export interface ExplainedRun {
  peekVariable(slot: number): Value | undefined
  peekFormula(index: number): Value | undefined
}

interface Ref {
  kind: 'variable' | 'formula'
  name: string
  index: number
}

const refsOf = new WeakMap<CompiledNode, Ref[]>()

/** What a run that explained itself tells about its outcome (EngineResult.explanation). */
export interface Explanation {
  readonly items: ReadonlyMap<string, Reason[]>
  readonly focus: Reason[] | undefined
  readonly evaluations: ReadonlyMap<string, Evaluation>
}

export class Explainer implements Explanation {
  /** Each variable's origin once the run set it (answered, assigned, fetched). */
  private readonly origins: Array<ValueOrigin | undefined>
  /** The latest evaluation of every condition decided so far. */
  readonly evaluations = new Map<string, Evaluation>()
  /** The Rule Calls running, outermost first. */
  private readonly calls: CompiledNode[] = []
  /** Reasons of each advice node emitted, by node id (a run emits a node at most once). */
  readonly items = new Map<string, Reason[]>()
  /** Reasons of the question the run stopped at. */
  focus: Reason[] | undefined = undefined

  constructor(
    private readonly compiled: CompiledAdviceSet,
    private readonly inputs: Record<string, unknown>,
    private readonly run: ExplainedRun,
  ) {
    this.origins = new Array<ValueOrigin | undefined>(compiled.variables.length).fill(undefined)
  }

  /** A condition was decided: its result and what it read now. */
  decided(node: CompiledNode, result: Value): void {
    this.evaluations.set(node.id, { result, reads: this.readsOf(node) })
  }

  answered(slot: number, node: CompiledNode): void {
    this.origins[slot] ??= { kind: 'answer', nodeId: node.id }
  }

  assigned(slot: number, node: CompiledNode): void {
    this.origins[slot] = { kind: 'assignment', nodeId: node.id, expression: node.model.expression ?? '' }
  }

  fetched(slot: number, node: CompiledNode): void {
    this.origins[slot] = { kind: 'api', nodeId: node.id, apiId: node.apiId }
  }

  enterCall(node: CompiledNode): void {
    this.calls.push(node)
  }

  leaveCall(): void {
    this.calls.pop()
  }

  /** The run stopped (a failure or a pending call unwinds every Rule Call). */
  reset(): void {
    this.calls.length = 0
  }

  emitted(node: CompiledNode): void {
    this.items.set(node.id, this.reasonsTo(node))
  }

  focused(node: CompiledNode): void {
    this.focus = this.reasonsTo(node)
  }

  /** The steps from the outermost running rule's root to `node`, each as the run decided it. */
  private reasonsTo(node: CompiledNode): Reason[] {
    const steps: CompiledNode[] = []
    for (const call of this.calls) steps.push(...ancestorsOf(this.compiled, call), call)
    steps.push(...ancestorsOf(this.compiled, node))
    return steps.map((step) => this.reason(step))
  }

  private reason(node: CompiledNode): Reason {
    const base = { nodeId: node.id, ruleId: node.ruleId }
    if (node.kind === KIND_CALL) {
      return { ...base, type: 'ruleCall', result: true, reads: [], calledRule: { id: node.called!.id, name: node.called!.name } }
    }
    if (node.kind === KIND_ALWAYS) return { ...base, type: 'conditionAlways', result: true, reads: [] }
    const evaluation = this.evaluations.get(node.id)
    return { ...base, type: 'condition', expression: node.model.expression ?? '', result: evaluation?.result ?? true, reads: evaluation?.reads ?? [] }
  }

  private readsOf(node: CompiledNode): ReasonRead[] {
    let refs = refsOf.get(node)
    if (refs === undefined) refsOf.set(node, refs = this.refs(node))
    return refs.map((ref) => (ref.kind === 'formula' ? this.formulaRead(ref) : this.variableRead(ref)))
  }

  private refs(node: CompiledNode): Ref[] {
    if (node.kind !== KIND_CONDITION || node.ast === null) return []
    const found = references(node.ast)
    const refs: Ref[] = []
    const add = (kind: Ref['kind'], name: string) => {
      const index = (kind === 'formula' ? this.compiled.formulaIndex : this.compiled.variableIndex).get(name)
      if (index !== undefined && !refs.some((r) => r.kind === kind && r.name === name)) refs.push({ kind, name, index })
    }
    for (const name of found.variables) add('variable', name)
    for (const name of found.formulas) add('formula', name)
    for (const name of found.bare) add(this.compiled.bareFormulas.has(name) ? 'formula' : 'variable', name)
    return refs
  }

  private variableRead(ref: Ref): ReasonRead {
    const info = this.compiled.variables[ref.index]!
    const value = this.run.peekVariable(ref.index)
    const from: ValueOrigin = this.origins[ref.index]
      ?? (ref.index < RESERVED_SLOTS || info.isSystem ? { kind: 'system' }
        : info.isConstant ? { kind: 'constant' }
        : value === undefined ? { kind: 'unset' }
        : Object.hasOwn(this.inputs, info.name) && this.inputs[info.name] !== null ? { kind: 'input' } : { kind: 'default' })
    return { kind: 'variable', name: ref.name, value: value ?? null, valueFormatted: value === undefined ? '' : formatSlot(value, info), from }
  }

  private formulaRead(ref: Ref): ReasonRead {
    const info = this.compiled.formulas[ref.index]!
    const value = this.run.peekFormula(ref.index)
    const expression = info.entity?.expression ?? ''
    return { kind: 'formula', name: ref.name, value: value ?? null, valueFormatted: value === undefined ? '' : formatSlot(value, info), from: { kind: 'formula', expression } }
  }
}
