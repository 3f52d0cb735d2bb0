// What the author sees while typing, before saving: the field's parse error with its position, and names that are
// not in the dictionary. Only the edited field is checked on a keystroke; the whole-set checks (set-checks.ts)
// run later, off the keystroke path.
import { RESERVED_VARIABLE_NAMES } from '../../src/engine/entity-types.ts'
import { EngineError, type SourceSpan } from '../../src/engine/errors.ts'
import { NAME_PATTERN, parseAssignment, parseExpression, references, type Expr } from '../../src/engine/expr/index.ts'
import { refSpan } from '../../src/engine/checks/names.ts'
import { parseTemplate } from '../../src/engine/template/index.ts'
import type { FieldKind } from './fields.ts'

/** A name the dictionary lacks: what the node editor offers to create in place. */
export interface MissingEntry {
  kind: 'variable' | 'formula'
  name: string
  /** The node reads it (so a question may ask for it), rather than setting it (a target) or naming it (a formula node). */
  read: boolean
}

export interface FieldIssue {
  code: string
  message: string
  span?: SourceSpan
  missing?: MissingEntry
}

export interface KnownNames {
  variables: ReadonlySet<string>
  formulas: ReadonlySet<string>
}

export function knownNames(entries: ReadonlyArray<{ name: string; kind: 'variable' | 'formula' }>): KnownNames {
  const variables = new Set(RESERVED_VARIABLE_NAMES)
  const formulas = new Set<string>()
  for (const entry of entries) (entry.kind === 'formula' ? formulas : variables).add(entry.name)
  return { variables, formulas }
}

const unknownVariable = (name: string, span?: SourceSpan, read = true): FieldIssue => ({
  code: 'UNKNOWN_VARIABLE', message: `{{${name}}} is not in the dictionary.`, ...(span ? { span } : {}), missing: { kind: 'variable', name, read },
})
const unknownFormula = (name: string, span?: SourceSpan, read = true): FieldIssue => ({
  code: 'UNKNOWN_FORMULA', message: `[[${name}]] is not in the dictionary.`, ...(span ? { span } : {}), missing: { kind: 'formula', name, read },
})

function unknownReferences(expr: Expr, known: KnownNames, target?: { name: string; span: SourceSpan }): FieldIssue[] {
  const refs = references(expr)
  const issues: FieldIssue[] = []
  if (target && !known.variables.has(target.name)) issues.push(unknownVariable(target.name, target.span, false))
  for (const name of refs.variables) if (!known.variables.has(name)) issues.push(unknownVariable(name, refSpan(expr, name)))
  for (const name of refs.formulas) if (!known.formulas.has(name)) issues.push(unknownFormula(name, refSpan(expr, name)))
  for (const name of refs.bare) {
    if (!known.variables.has(name) && !known.formulas.has(name)) issues.push(unknownVariable(name, refSpan(expr, name)))
  }
  return issues
}

function checkExpression(source: string, mode: 'condition' | 'assignment' | 'value', known: KnownNames): FieldIssue[] {
  try {
    if (mode !== 'assignment') return unknownReferences(parseExpression(source, { mode }), known)
    const assignment = parseAssignment(source)
    const targetAt = source.indexOf(assignment.target)
    return unknownReferences(assignment.value, known, { name: assignment.target, span: { start: targetAt, end: targetAt + assignment.target.length } })
  } catch (error) {
    if (!(error instanceof EngineError)) throw error
    return [{ code: error.code, message: error.message, ...(error.span ? { span: error.span } : {}) }]
  }
}

function checkTemplate(source: string, known: KnownNames): FieldIssue[] {
  const issues: FieldIssue[] = []
  let offset = 0
  for (const part of parseTemplate(source)) {
    const length = part.kind === 'text' ? part.text.length : part.raw.length
    const span = { start: offset, end: offset + length }
    if (part.kind === 'variable' && !known.variables.has(part.name)) issues.push(unknownVariable(part.name, span))
    if (part.kind === 'formula' && !known.formulas.has(part.name)) issues.push(unknownFormula(part.name, span))
    offset += length
  }
  return issues
}

function checkName(source: string, names: 'variable' | 'formula', known: KnownNames): FieldIssue[] {
  const name = source.trim().replace(/^\{\{\s*(.*?)\s*\}\}$|^\[\[\s*(.*?)\s*\]\]$/, '$1$2')
  if (!NAME_PATTERN.test(name)) {
    return [{ code: 'INVALID_NAME', message: 'Names start with a letter or digit, then contain only letters, digits, _ or ?.' }]
  }
  if (names === 'variable' && !known.variables.has(name)) return [unknownVariable(name, undefined, false)]
  if (names === 'formula' && !known.formulas.has(name)) return [unknownFormula(name, undefined, false)]
  return []
}

/** Issues of one field's value as typed; empty values are left to the server's "is required". */
export function checkField(input: FieldKind, value: string, known: KnownNames): FieldIssue[] {
  if (value.trim() === '') return []
  switch (input.kind) {
    case 'expression': return checkExpression(value, input.mode, known)
    case 'template': return checkTemplate(value, known)
    case 'name': return checkName(value, input.names, known)
    default: return []
  }
}

/** 1-based column of a span's start, as the author counts characters. */
export function columnOf(span: SourceSpan): number {
  return span.start + 1
}
