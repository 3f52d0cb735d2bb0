// compileAdviceSet: parse every expression once, compile closures, resolve names to slots and rule calls.
// Problems are collected per node (and per dictionary entry) instead of thrown, so one bad node never hides the
// rest of the set; the runner turns a node's error into an error item for its rule.
import { EngineError } from '../errors.ts'
import { compileExpression, parseAssignment, parseExpression } from '../expr/index.ts'
import type { CompiledExpr, Expr, RefKind } from '../expr/index.ts'
import type { AdviceSetModel, EntityModel, NodeModel, RuleModel } from '../model.ts'
import { coerceInput } from '../types/index.ts'
import type { DataType } from '../types/index.ts'
import type { Value } from '../value.ts'
import { adviceGroupOf } from './advice-group.ts'
import { planCondition } from './condition-plan.ts'
import { fastInputOf } from './inputs.ts'
import { mainProgram } from './program.ts'
import { rawToValue } from './raw-value.ts'
import { RESERVED_SLOT_TYPES } from './slots.ts'
import {
  CompiledNode,
  KIND_OF,
  type CompileIssue,
  type CompiledAdviceSet,
  type CompiledRule,
  type FormulaSlot,
  type SlotScope,
  type VariableSlot,
} from './compiled.ts'

export function compileAdviceSet(model: AdviceSetModel): CompiledAdviceSet {
  return new Compiler(model).run()
}

class Compiler {
  private readonly errors: CompileIssue[] = []
  private readonly variables: VariableSlot[] = []
  private readonly variableIndex = new Map<string, number>()
  private readonly formulas: FormulaSlot[] = []
  private readonly formulaIndex = new Map<string, number>()
  private readonly dictionaryVariables = new Map<string, EntityModel>()
  private readonly dictionaryFormulas = new Map<string, EntityModel>()
  private readonly bareFormulas = new Set<string>()
  private readonly nodeById = new Map<string, CompiledNode>()
  private readonly ruleById = new Map<string, CompiledRule>()
  private readonly calls: CompiledNode[] = []

  constructor(private readonly model: AdviceSetModel) {}

  run(): CompiledAdviceSet {
    for (const entity of this.model.entities) {
      const names = entity.kind === 'formula' ? this.dictionaryFormulas : this.dictionaryVariables
      names.set(entity.name, entity)
    }
    for (const name of this.dictionaryFormulas.keys()) {
      if (!this.dictionaryVariables.has(name)) this.bareFormulas.add(name)
    }
    for (const [name, dataType] of RESERVED_SLOT_TYPES) this.addVariable(name, dataType, true)
    for (const entity of this.dictionaryVariables.values()) this.variableSlot(entity.name)
    for (const entity of this.dictionaryFormulas.values()) this.formulaSlot(entity.name)

    const setRules = this.model.rules.map((rule) => this.compileRule(rule, false))
    for (const rule of this.model.externalRules ?? []) {
      if (!this.ruleById.has(rule.id)) this.compileRule(rule, true)
    }
    this.resolveCalls()
    // A rule marked to run only when called is compiled (calls reach it) but left out of the set's own run.
    const rules = setRules.filter((_rule, index) => this.model.rules[index]!.onlyWhenCalled !== true)
    const main = mainProgram(rules)
    return {
      program: main.program,
      ruleEnds: main.ruleEnds,
      id: this.model.id,
      name: this.model.name,
      identity: Object.freeze({ id: this.model.id, name: this.model.name }),
      model: this.model,
      rules,
      ruleById: this.ruleById,
      nodeById: this.nodeById,
      variables: this.variables,
      blankValues: Array.from({ length: this.variables.length }, () => undefined),
      variableIndex: this.variableIndex,
      formulas: this.formulas,
      formulaIndex: this.formulaIndex,
      bareFormulas: this.bareFormulas,
      errors: this.errors,
    }
  }

  private addVariable(name: string, reservedType: DataType | undefined, isSystem: boolean): number {
    const entity = this.dictionaryVariables.get(name)
    const dataType = entity?.dataType ?? reservedType
    const choices = choiceAnswers(dataType, entity?.options)
    const slot: VariableSlot = {
      name,
      entity,
      dataType,
      options: entity?.options,
      displayFormat: entity?.displayFormat,
      defaultValue: entity ? this.coerceDefault(entity, dataType) : undefined,
      choiceAnswers: choices,
      fastInput: fastInputOf(dataType, choices !== undefined),
      isSystem: isSystem || entity?.isSystem === true,
      isConstant: entity?.isConstant === true,
      inheritable: name in Object.prototype,
    }
    this.variableIndex.set(name, this.variables.length)
    this.variables.push(slot)
    return this.variables.length - 1
  }

  private variableSlot(name: string): number {
    return this.variableIndex.get(name) ?? this.addVariable(name, undefined, false)
  }

  private coerceDefault(entity: EntityModel, dataType: DataType | undefined): Value | undefined {
    const raw = entity.defaultValue
    if (raw === undefined || raw === null || raw === '') return undefined
    if (dataType === undefined) return rawToValue(raw)
    const coerced = coerceInput(dataType, raw, entity.options ? { options: entity.options } : undefined)
    if (coerced.ok) return coerced.value
    this.errors.push({
      nodeId: entity.id,
      ruleId: null,
      entityName: entity.name,
      code: 'INVALID_DEFAULT',
      message: `The default value of {{${entity.name}}} is not valid: ${coerced.message}`,
    })
    return undefined
  }

  private formulaSlot(name: string): number {
    const known = this.formulaIndex.get(name)
    if (known !== undefined) return known
    const index = this.formulas.length
    // Reserve the slot before compiling so a formula that names itself resolves instead of recursing here.
    this.formulaIndex.set(name, index)
    const entity = this.dictionaryFormulas.get(name)
    const placeholder: FormulaSlot = {
      name,
      entity,
      expr: null,
      ast: null,
      error: entity ? null : new EngineError('UNKNOWN_FORMULA', `There is no formula named [[${name}]].`),
      dataType: entity?.dataType,
      displayFormat: entity?.displayFormat,
    }
    this.formulas.push(placeholder)
    if (!entity) return index
    if (entity.expression === undefined || entity.expression.trim() === '') {
      this.formulas[index] = {
        ...placeholder,
        error: new EngineError('EMPTY_FORMULA', `The formula [[${name}]] has no expression.`),
      }
      this.reportEntity(entity, this.formulas[index]!.error!)
      return index
    }
    try {
      const ast = parseExpression(entity.expression, { mode: 'value' })
      this.formulas[index] = { ...placeholder, ast, expr: this.compile(ast) }
    } catch (error) {
      const engineError = asEngineError(error)
      this.formulas[index] = { ...placeholder, error: engineError }
      this.reportEntity(entity, engineError)
    }
    return index
  }

  private reportEntity(entity: EntityModel, error: EngineError): void {
    this.errors.push({
      nodeId: entity.id,
      ruleId: null,
      entityName: entity.name,
      code: error.code,
      message: error.message,
      ...(error.span ? { span: error.span } : {}),
    })
  }

  /** Binds each reference to its slot once, so evaluation reads an array instead of looking names up. */
  private readonly bind = (kind: RefKind, name: string): CompiledExpr => {
    if (kind === 'formula' || (kind === 'bare' && this.bareFormulas.has(name))) {
      const index = this.formulaSlot(name)
      return (scope) => (scope as SlotScope).formula(index)
    }
    const slot = this.variableSlot(name)
    return (scope) => (scope as SlotScope).variable(slot)
  }

  private compile(ast: Expr): CompiledExpr {
    return compileExpression(ast, { bindReference: this.bind })
  }

  /** The variable slot a reference reads, when it reads a variable (not a formula). */
  private readonly variableRef = (ref: Expr & { type: 'ref' }): number | undefined => {
    if (ref.kind === 'formula' || (ref.kind === 'bare' && this.bareFormulas.has(ref.name))) return undefined
    return this.variableSlot(ref.name)
  }

  private compileRule(rule: RuleModel, external: boolean): CompiledRule {
    const nodes = rule.nodes.map((node) => this.compileNode(node, rule.id))
    const compiled: CompiledRule = {
      id: rule.id,
      name: rule.name,
      adviceSetId: rule.adviceSetId,
      external,
      nodes,
      program: null,
    }
    this.ruleById.set(rule.id, compiled)
    return compiled
  }

  private compileNode(model: NodeModel, ruleId: string): CompiledNode {
    const kind = KIND_OF[model.type]
    if (kind === undefined) {
      const node = new CompiledNode(model.id, 'conditionAlways', KIND_OF.conditionAlways, ruleId, model)
      this.fail(node, new EngineError('UNKNOWN_NODE_TYPE', `Node ${model.id} has an unknown type "${String(model.type)}".`))
      return node
    }
    const node = new CompiledNode(model.id, model.type, kind, ruleId, model)
    this.nodeById.set(model.id, node)
    try {
      this.compileBody(node, model)
    } catch (error) {
      this.fail(node, asEngineError(error))
    }
    node.children = model.children.map((child) => this.compileNode(child, ruleId))
    return node
  }

  private compileBody(node: CompiledNode, model: NodeModel): void {
    switch (model.type) {
      case 'condition': {
        const ast = parseExpression(required(model.expression, model, 'a condition'), { mode: 'condition' })
        node.ast = ast
        node.expr = this.compile(ast)
        node.plan = planCondition(ast, this.variableRef)
        return
      }
      case 'inputRequest': {
        node.slot = this.targetSlot(model)
        node.question = model.question ?? ''
        return
      }
      case 'variableAssignment': {
        const assignment = parseAssignment(required(model.expression, model, 'an assignment'))
        node.slot = this.assignableSlot(assignment.target, model)
        const value = assignment.value
        const ast: Expr =
          assignment.op === '='
            ? value
            : {
                type: 'binary',
                op: assignment.op === '+=' ? '+' : '-',
                left: { type: 'ref', kind: 'variable', name: assignment.target, span: value.span },
                right: value,
                span: value.span,
              }
        node.ast = ast
        node.expr = this.compile(ast)
        return
      }
      case 'formula': {
        // The formula is defined once, in the dictionary; the node marks where its value is worked out (the trace
        // shows it). Nodes saved before that (and versions holding them) may carry an expression of their own,
        // which redefines the formula from the node on.
        const name = required(model.variable, model, 'the name of the formula it computes')
        node.slot = this.formulaSlot(name)
        if (model.expression === undefined || model.expression.trim() === '') return
        const ast = parseExpression(model.expression, { mode: 'value' })
        node.ast = ast
        node.expr = this.compile(ast)
        return
      }
      case 'advice': {
        node.advice = compileAdvice(node, model)
        return
      }
      case 'ruleCall': {
        required(model.calledRuleId, model, 'the rule it calls')
        this.calls.push(node)
        return
      }
      case 'apiCall': {
        node.apiId = required(model.apiId, model, 'the API it calls')
        node.slot = this.assignableSlot(required(model.variable, model, 'the variable that receives the answer'), model)
        return
      }
      case 'conditionAlways':
      case 'ruleExit':
        return
    }
  }

  private targetSlot(model: NodeModel): number {
    return this.variableSlot(required(model.variable, model, 'the variable it asks for'))
  }

  private assignableSlot(name: string, model: NodeModel): number {
    const slot = this.variableSlot(name)
    if (this.variables[slot]!.isConstant) {
      throw new EngineError('CONSTANT_ASSIGNMENT', `{{${name}}} is a constant and cannot be changed.`, { nodeId: model.id })
    }
    return slot
  }

  private resolveCalls(): void {
    for (const node of this.calls) {
      const calledId = node.model.calledRuleId!
      const called = this.ruleById.get(calledId)
      if (called) {
        node.called = called
        markMayRepeat(called.nodes)
      } else this.fail(node, new EngineError('UNKNOWN_RULE', `The called rule ${calledId} does not exist.`))
    }
  }

  private fail(node: CompiledNode, error: EngineError): void {
    node.error = error
    this.errors.push({
      nodeId: node.id,
      ruleId: node.ruleId,
      code: error.code,
      message: error.message,
      ...(error.span ? { span: error.span } : {}),
    })
  }
}

/** The advice nodes of a called rule (the rules it calls in turn are marked through their own calls). */
function markMayRepeat(nodes: readonly CompiledNode[]): void {
  for (const node of nodes) {
    if (node.advice !== null) node.advice.mayRepeat = true
    markMayRepeat(node.children)
  }
}

function compileAdvice(node: CompiledNode, model: NodeModel): CompiledNode['advice'] {
  const tags = Object.freeze([...(model.tags ?? [])])
  return {
    group: adviceGroupOf(tags),
    headline: model.headline ?? '',
    text: model.text ?? '',
    mayRepeat: false,
    // Declared now, though set on the first full-response run: a field added later lives out of the object.
    boundHeadline: undefined,
    boundText: undefined,
    decisionItem: Object.freeze({
      nodeId: node.id,
      ruleId: node.ruleId,
      tags,
      sources: Object.freeze([...(model.sources ?? [])]),
    }),
  }
}

function required(value: string | undefined, model: NodeModel, what: string): string {
  if (value === undefined || value.trim() === '') {
    throw new EngineError('MISSING_FIELD', `This ${model.type} node needs ${what}.`, { nodeId: model.id })
  }
  return value
}

export function asEngineError(error: unknown): EngineError {
  if (error instanceof EngineError) return error
  throw error
}

/** What each option, written exactly as the author wrote it, coerces to (see inputs.ts). */
function choiceAnswers(dataType: DataType | undefined, options: string[] | undefined): ReadonlyMap<string, Value> | undefined {
  if ((dataType !== 'select' && dataType !== 'radio') || !options) return undefined
  const answers = new Map<string, Value>()
  for (const option of options) {
    const coerced = coerceInput(dataType, option, { options })
    if (coerced.ok && coerced.value !== null) answers.set(option, coerced.value)
  }
  return answers
}
