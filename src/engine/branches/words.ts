// Conditions in words, for readers who do not read expressions: `{{Age}} >= 65 && !{{Smoker}}` reads "Age is at
// least 65 and Smoker is No". Comparisons of a name with a constant get a phrase fitting the name's data type
// (numbers, percents, dates, yes/no); negations are pushed down to the comparisons (De Morgan) so no "not (…)"
// is left where a plain phrase exists; anything else (functions, arithmetic) is quoted as written, names unbraced.
import type { Expr } from '../expr/ast.ts'
import { printExpression } from '../expr/printer.ts'
import type { DataType } from '../types/index.ts'
import type { CompiledAdviceSet } from '../tree/compiled.ts'
import { dateToText } from '../value.ts'

type CompareOp = '<' | '>' | '<=' | '>=' | '==' | '!='
const COMPARE_OPS = new Set<string>(['<', '>', '<=', '>=', '==', '!='])
const NEGATED: Record<CompareOp, CompareOp> = { '<': '>=', '>': '<=', '<=': '>', '>=': '<', '==': '!=', '!=': '==' }
const MIRRORED: Record<CompareOp, CompareOp> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=', '==': '==', '!=': '!=' }
const NUMBER_PHRASES: Record<CompareOp, string> = {
  '<': 'is less than', '<=': 'is at most', '>': 'is more than', '>=': 'is at least', '==': 'is', '!=': 'is not',
}
const DATE_PHRASES: Record<CompareOp, string> = {
  '<': 'is before', '<=': 'is on or before', '>': 'is after', '>=': 'is on or after', '==': 'is', '!=': 'is not',
}

/** What the words need to know about the names an expression uses. */
export interface WordsVocabulary {
  dataTypeOf(kind: 'variable' | 'formula', name: string): DataType | undefined
  isFormula(name: string): boolean
}

export function vocabularyOf(compiled: CompiledAdviceSet): WordsVocabulary {
  return {
    dataTypeOf: (kind, name) => {
      if (kind === 'formula') return compiled.formulas[compiled.formulaIndex.get(name) ?? -1]?.dataType
      return compiled.variables[compiled.variableIndex.get(name) ?? -1]?.dataType
    },
    isFormula: (name) => compiled.bareFormulas.has(name),
  }
}

export function conditionInWords(expr: Expr, vocabulary: WordsVocabulary): string {
  return new Words(vocabulary).describe(expr, false)
}

/** A condition's words, and the same in parentheses when it is an "or" (to stand beside others joined by "and"). */
function conditionPart(expr: Expr, vocabulary: WordsVocabulary): { words: string; joinable: string } {
  const words = new Words(vocabulary)
  const text = words.describe(expr, false)
  return { words: text, joinable: words.connective(expr, false) === '||' ? `(${text})` : text }
}

class Words {
  constructor(private readonly vocabulary: WordsVocabulary) {}

  describe(expr: Expr, negated: boolean): string {
    switch (expr.type) {
      case 'unary':
        if (expr.op === '!') return this.describe(expr.operand, !negated)
        break
      case 'literal':
        if (typeof expr.value === 'boolean') return expr.value !== negated ? 'always' : 'never'
        break
      case 'ref':
        return `${expr.name} is ${negated ? 'No' : 'Yes'}`
      case 'method':
        return this.method(expr.target, expr.name, expr.args, negated)
      case 'binary':
        if (expr.op === '&&' || expr.op === '||') {
          // not (a and b) = not a or not b; not (a or b) = not a and not b.
          const op = (expr.op === '&&') !== negated ? '&&' : '||'
          return [expr.left, expr.right].map((side) => this.joined(side, negated, op)).join(op === '&&' ? ' and ' : ' or ')
        }
        if (COMPARE_OPS.has(expr.op)) return this.comparison(expr.left, negated ? NEGATED[expr.op as CompareOp] : (expr.op as CompareOp), expr.right)
        break
      default:
        break
    }
    return `${this.operand(expr)} is ${negated ? 'false' : 'true'}`
  }

  /** A side of `and`/`or`: in parentheses when it is itself the other connective. */
  private joined(side: Expr, negated: boolean, op: '&&' | '||'): string {
    const text = this.describe(side, negated)
    return this.connective(side, negated) === (op === '&&' ? '||' : '&&') ? `(${text})` : text
  }

  /** The top-level connective once negations are pushed down, if any. */
  connective(expr: Expr, negated: boolean): '&&' | '||' | null {
    if (expr.type === 'unary' && expr.op === '!') return this.connective(expr.operand, !negated)
    if (expr.type !== 'binary' || (expr.op !== '&&' && expr.op !== '||')) return null
    return (expr.op === '&&') !== negated ? '&&' : '||'
  }

  private comparison(left: Expr, op: CompareOp, right: Expr): string {
    // The name is the subject: `65 <= {{Age}}` reads "Age is at least 65".
    if (left.type === 'literal' && right.type !== 'literal') return this.comparison(right, MIRRORED[op], left)
    const type = this.typeOf(left) ?? this.typeOf(right)
    if (right.type === 'literal' && typeof right.value === 'boolean' && (op === '==' || op === '!=')) {
      return `${this.operand(left)} is ${(right.value === (op === '==')) ? 'Yes' : 'No'}`
    }
    const phrase = (type === 'date' ? DATE_PHRASES : NUMBER_PHRASES)[op]
    return `${this.operand(left)} ${phrase} ${this.operand(right, type)}`
  }

  private method(target: Expr, name: 'match' | 'includes', args: Expr[], negated: boolean): string {
    const argument = args.map((arg) => this.operand(arg)).join(', ')
    if (name === 'includes') return `${this.operand(target)} ${negated ? 'does not include' : 'includes'} ${argument}`
    return `${this.operand(target)} ${negated ? 'does not match' : 'matches'} ${argument}`
  }

  private typeOf(expr: Expr): DataType | undefined {
    if (expr.type === 'ref') return this.vocabulary.dataTypeOf(this.kindOf(expr), expr.name)
    if (expr.type === 'literal' && expr.value instanceof Date) return 'date'
    return undefined
  }

  private kindOf(expr: Extract<Expr, { type: 'ref' }>): 'variable' | 'formula' {
    return expr.kind === 'formula' || (expr.kind === 'bare' && this.vocabulary.isFormula(expr.name)) ? 'formula' : 'variable'
  }

  /** A name, a constant as a person writes it (in the other side's data type), or the expression without braces. */
  private operand(expr: Expr, type?: DataType): string {
    if (expr.type === 'ref') return expr.name
    if (expr.type === 'literal') return constantInWords(expr.value, type)
    if (expr.type === 'unary' && expr.op === '-' && expr.operand.type === 'literal' && typeof expr.operand.value === 'number') {
      return constantInWords(-expr.operand.value, type)
    }
    if (expr.type === 'regex') return `/${expr.pattern}/${expr.flags}`
    return printExpression(expr).replace(/\{\{([^{}]+)\}\}|\[\[([^[\]]+)\]\]/g, (_m, variable: string | undefined, formula: string | undefined) => variable ?? formula ?? '')
  }
}

/** 100000 → "100,000", a percent's 0.05 → "5%", dates as YYYY-MM-DD, booleans as Yes/No, text as written. */
export function constantInWords(value: number | string | boolean | Date, type?: DataType): string {
  if (value instanceof Date) return dateToText(value)
  if (typeof value === 'boolean') return value ? 'Yes' : 'No'
  if (typeof value === 'string') return value === '' ? '“”' : value
  if (type === 'percent') return `${Number((value * 100).toPrecision(12))}%`
  return Math.abs(value) >= 10_000 ? value.toLocaleString('en-US', { maximumFractionDigits: 10 }) : String(value)
}

export interface PathWords {
  /** One entry per condition on the path, in path order. */
  conditions: string[]
  /** The conditions joined with "and"; "Always" when the path has none. */
  text: string
  /** The rule the path starts in, then each rule it enters through a Rule Call, by name. */
  rules: string[]
}

/** The path's conditions in words; `cache` (per compiled set) keeps each node's words once over many paths. */
export function pathInWords(compiled: CompiledAdviceSet, path: readonly string[], cache: WordsCache = new Map()): PathWords {
  const vocabulary = vocabularyOf(compiled)
  const parts: Array<{ words: string; joinable: string }> = []
  const first = compiled.nodeById.get(path[0] ?? '')
  const rules: string[] = first ? [compiled.ruleById.get(first.ruleId)?.name ?? first.ruleId] : []
  for (const id of path) {
    const node = compiled.nodeById.get(id)
    if (!node) continue
    if (node.type === 'ruleCall' && node.called) rules.push(node.called.name)
    let part = cache.get(id)
    if (part === undefined) {
      part = node.type !== 'condition' ? null : node.ast ? conditionPart(node.ast, vocabulary) : { words: node.model.expression ?? '', joinable: node.model.expression ?? '' }
      cache.set(id, part)
    }
    if (part !== null && part.words !== 'always') parts.push(part)
  }
  const text = parts.length === 0 ? 'Always' : parts.length === 1 ? parts[0]!.words : parts.map((part) => part.joinable).join(' and ')
  return { conditions: parts.map((part) => part.words), text, rules }
}

/** Words of each node already described, by node id (null: the node is not a condition). */
export type WordsCache = Map<string, { words: string; joinable: string } | null>
