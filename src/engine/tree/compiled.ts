// The compiled form of an advice set: expressions parsed once and turned into closures, names resolved to slots,
// rule calls resolved to rules. Built by compile.ts, read by the runner.
import type { EngineError, SourceSpan } from '../errors.ts'
import type { CompiledExpr, Expr, Scope } from '../expr/index.ts'
import type { AttributedString } from '../content/index.ts'
import type { AdviceSetModel, EntityModel, NodeModel, SourceRef } from '../model.ts'
import type { NodeType } from '../entity-types.ts'
import type { DataType } from '../types/index.ts'
import type { Value } from '../value.ts'
import type { ConditionPlan } from './condition-plan.ts'
import type { Program } from './program.ts'
import type { BoundText } from './bound-text.ts'

// Numeric node kinds keep the runner's dispatch a dense switch.
export const KIND_CONDITION = 0
export const KIND_ALWAYS = 1
export const KIND_INPUT = 2
export const KIND_ASSIGN = 3
export const KIND_FORMULA = 4
export const KIND_ADVICE = 5
export const KIND_CALL = 6
export const KIND_EXIT = 7
export const KIND_API = 8
/** A node that failed to compile: running it fails its rule. */
export const KIND_BROKEN = 9

export const KIND_OF: Readonly<Record<NodeType, number>> = {
  condition: KIND_CONDITION,
  conditionAlways: KIND_ALWAYS,
  inputRequest: KIND_INPUT,
  variableAssignment: KIND_ASSIGN,
  formula: KIND_FORMULA,
  advice: KIND_ADVICE,
  ruleCall: KIND_CALL,
  ruleExit: KIND_EXIT,
  apiCall: KIND_API,
}

export type AdviceGroup = 'advice' | 'assumptions' | 'examples'

/** What an advice node emits in decision mode; shared by every run, so it is frozen. */
export interface AdviceItem {
  readonly nodeId: string
  readonly ruleId: string
  readonly tags: readonly string[]
  readonly sources: readonly SourceRef[]
  /** Rendered in the requested content type (full-response mode), or absent in decision mode. */
  readonly headline?: ContentBody
  readonly text?: ContentBody
  /** Headline_Custom's value when it replaced the headline. */
  readonly customHeadline?: string
}

/** Rendered text: a string, or for the attributed-string content type, text with ranges. */
export type ContentBody = string | AttributedString

export interface CompiledAdvice {
  readonly group: AdviceGroup
  readonly headline: string
  readonly text: string
  readonly decisionItem: AdviceItem
  /**
   * The node lies in a rule that a Rule Call calls, so one run may reach it more than once (the rule also runs on its
   * own, or is called twice); the runner then emits it only the first time.
   */
  mayRepeat: boolean
  /** headline and text prepared for rendering on the first full-response run (compiling for checks needs neither). */
  boundHeadline?: BoundText
  boundText?: BoundText
}

export class CompiledNode {
  children: CompiledNode[] = []
  /** Condition, assignment value, formula-node expression or API-call nothing. */
  expr: CompiledExpr | null = null
  /** Parsed form of `expr`, kept for static checks and branch generation. */
  ast: Expr | null = null
  /** Conditions only: the flat form of a simple condition (see condition-plan.ts). */
  plan: ConditionPlan | null = null
  /** Variable slot (input request, assignment, API call) or formula index (formula node). */
  slot = -1
  called: CompiledRule | null = null
  advice: CompiledAdvice | null = null
  question = ''
  /** Input requests: the question prepared for rendering on the first full-response run. */
  boundQuestion: BoundText | null = null
  apiId = ''
  error: EngineError | null = null

  constructor(
    readonly id: string,
    readonly type: NodeType,
    readonly kind: number,
    readonly ruleId: string,
    readonly model: NodeModel,
  ) {}
}

/** The scope compiled expressions of an advice set read from: references are bound to slots at compile time. */
export interface SlotScope extends Scope {
  variable(slot: number): Value
  formula(index: number): Value
}

export interface CompiledRule {
  readonly id: string
  readonly name: string
  readonly adviceSetId: string
  /** Root nodes, in sibling order. */
  readonly nodes: CompiledNode[]
  readonly external: boolean
  /** How the runner runs this rule when another rule calls it (program.ts); laid out on the first call. */
  program: Program | null
}

export interface VariableSlot {
  readonly name: string
  readonly entity: EntityModel | undefined
  readonly dataType: DataType | undefined
  readonly options: string[] | undefined
  readonly displayFormat: string | undefined
  /** Coerced dictionary default; undefined when there is none. */
  readonly defaultValue: Value | undefined
  /** Select and radio: the stored answer for each option spelled exactly as written. */
  readonly choiceAnswers: ReadonlyMap<string, Value> | undefined
  /** Which answers skip coercion (inputs.ts FAST_*). */
  readonly fastInput: number
  readonly isSystem: boolean
  readonly isConstant: boolean
  /** The name is also a property every object inherits ("constructor"), so inputs must be checked as own. */
  readonly inheritable: boolean
}

export interface FormulaSlot {
  readonly name: string
  readonly entity: EntityModel | undefined
  readonly expr: CompiledExpr | null
  readonly ast: Expr | null
  /** Why the formula cannot be computed (parse error, not in the dictionary). */
  readonly error: EngineError | null
  readonly dataType: DataType | undefined
  readonly displayFormat: string | undefined
}

export interface CompileIssue {
  /** The node, or the dictionary entity, the issue is about. */
  nodeId: string
  ruleId: string | null
  entityName?: string
  code: string
  message: string
  span?: SourceSpan
}

export interface CompiledAdviceSet {
  readonly id: string
  readonly name: string
  /** `{ id, name }`, shared by every result. */
  readonly identity: { readonly id: string; readonly name: string }
  readonly model: AdviceSetModel
  /** The rules that run on their own, in run order (not those that run only when called). */
  readonly rules: CompiledRule[]
  /** The top-level rules laid out for the runner (program.ts). */
  readonly program: Program
  /** Where each top-level rule ends in `program`: a failed rule's run goes on from there. */
  readonly ruleEnds: ReadonlyMap<string, number>
  readonly ruleById: ReadonlyMap<string, CompiledRule>
  readonly nodeById: ReadonlyMap<string, CompiledNode>
  readonly variables: VariableSlot[]
  /** One undefined per variable: a run's values start as a copy. */
  readonly blankValues: ReadonlyArray<Value | undefined>
  readonly variableIndex: ReadonlyMap<string, number>
  readonly formulas: FormulaSlot[]
  readonly formulaIndex: ReadonlyMap<string, number>
  /** A bare name means a formula when the dictionary knows it only as a formula; otherwise a variable. */
  readonly bareFormulas: ReadonlySet<string>
  readonly errors: CompileIssue[]
}
