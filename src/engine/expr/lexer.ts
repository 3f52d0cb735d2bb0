import { EngineError, type SourceSpan } from '../errors.ts'
import { requireIsoDate } from './dates.ts'
import { ExprErrorCode } from './error-codes.ts'
import { NAME_PATTERN } from './names.ts'

export type Token =
  | { kind: 'number'; value: number; start: number; end: number }
  | { kind: 'string'; value: string; start: number; end: number }
  | { kind: 'date'; value: Date; start: number; end: number }
  | { kind: 'variable' | 'formula'; name: string; start: number; end: number }
  | { kind: 'name'; text: string; start: number; end: number }
  | { kind: 'op'; text: string; start: number; end: number }
  | { kind: 'punct'; text: '(' | ')' | '[' | ']' | ',' | '.'; start: number; end: number }
  | { kind: 'regex'; pattern: string; flags: string; start: number; end: number }
  | { kind: 'eof'; start: number; end: number }

const WHITESPACE = /\s+/y
const NAME_RUN = /[\p{L}\p{Nd}_?]+/uy
const NAME_START = /[\p{L}\p{Nd}]/uy
const NUMBER = /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const TWO_CHAR_OPS = new Set(['==', '!=', '<>', '<=', '>=', '&&', '||', '+=', '-='])
const ONE_CHAR_OPS = new Set(['+', '-', '*', '/', '^', '<', '>', '!', '='])
const PUNCT = new Set(['(', ')', '[', ']', ',', '.'])
const ESCAPES: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', n: '\n', r: '\r', t: '\t', '/': '/' }
/** Characters that cannot be part of a formula name but do appear in nested list literals such as `[[1, 2]]`. */
const LIST_SYNTAX = /[[\],'"]/
const MAX_DATE_LITERAL = 40
/** Longer than any sensible formula name; `[[` further than this from `]]` starts a nested list. */
const FORMULA_LOOKAHEAD = 300

function fail(code: string, message: string, start: number, end: number): never {
  throw new EngineError(code, message, { span: { start, end } })
}

function matchAt(pattern: RegExp, source: string, pos: number): string | undefined {
  pattern.lastIndex = pos
  return pattern.exec(source)?.[0]
}

/**
 * Turns source text into tokens on demand (the parser pulls one at a time, and asks for a regex literal only where one
 * may appear, which is what resolves `/` as division versus the start of a pattern).
 *
 * A word that starts with a digit is a number when the whole word is a number (`2`, `2.5`, `1e6`) and a bare name
 * otherwise (`2abc`, `12_months`). Something that starts like a decimal number but runs on into name characters
 * (`2.5abc`) is an error rather than a guess.
 */
export class Lexer {
  private pos = 0
  private peeked: Token | undefined

  constructor(private readonly source: string) {}

  peek(): Token {
    this.peeked ??= this.scan()
    return this.peeked
  }

  next(): Token {
    const token = this.peek()
    this.peeked = undefined
    return token
  }

  /** Re-reads the already peeked `/` as the start of a regex literal `/pattern/flags`. */
  nextRegex(): Token & { kind: 'regex' } {
    const slash = this.peek()
    this.peeked = undefined
    let i = slash.start + 1
    let inClass = false
    for (; i < this.source.length; i++) {
      const ch = this.source[i]
      if (ch === '\\') i++
      else if (ch === '[') inClass = true
      else if (ch === ']') inClass = false
      else if (ch === '/' && !inClass) break
      else if (ch === '\n') break
    }
    if (i >= this.source.length || this.source[i] !== '/') {
      fail(ExprErrorCode.UnterminatedRegex, 'This pattern has no closing /.', slash.start, Math.min(i, this.source.length))
    }
    const pattern = this.source.slice(slash.start + 1, i)
    const flags = matchAt(NAME_RUN, this.source, i + 1) ?? ''
    this.pos = i + 1 + flags.length
    return { kind: 'regex', pattern, flags, start: slash.start, end: this.pos }
  }

  private scan(): Token {
    const src = this.source
    this.pos += matchAt(WHITESPACE, src, this.pos)?.length ?? 0
    const start = this.pos
    if (start >= src.length) return { kind: 'eof', start, end: start }
    const ch = src[start]!
    const two = src.slice(start, start + 2)

    if (two === '{{') return this.reference('variable', '}}')
    if (two === '[[') {
      // Only a short stretch is examined, so text with many "[[" that are nested lists is still read in linear time.
      const inside = src.slice(start + 2, start + 2 + FORMULA_LOOKAHEAD)
      const close = inside.indexOf(']]')
      if (close >= 0 && !LIST_SYNTAX.test(inside.slice(0, close))) return this.reference('formula', ']]')
    }
    if (ch === '"' || ch === "'") return this.string(ch)
    if (ch === '#') return this.date()
    if (ch >= '0' && ch <= '9') return this.numberOrName()
    if (matchAt(NAME_START, src, start) !== undefined) {
      const text = matchAt(NAME_RUN, src, start)!
      this.pos = start + text.length
      return { kind: 'name', text, start, end: this.pos }
    }
    if (TWO_CHAR_OPS.has(two)) {
      this.pos = start + 2
      return { kind: 'op', text: two, start, end: this.pos }
    }
    if (ONE_CHAR_OPS.has(ch)) {
      this.pos = start + 1
      return { kind: 'op', text: ch, start, end: this.pos }
    }
    if (PUNCT.has(ch)) {
      this.pos = start + 1
      return { kind: 'punct', text: ch as '(' | ')' | '[' | ']' | ',' | '.', start, end: this.pos }
    }
    const hint =
      ch === '&' ? ' Use && for "and".' : ch === '|' ? ' Use || for "or".' : ch === '{' ? ' Write variables as {{Name}}.' : ''
    const width = src.codePointAt(start)! > 0xffff ? 2 : 1
    return fail(ExprErrorCode.UnknownCharacter, `The character "${src.slice(start, start + width)}" is not allowed here.${hint}`, start, start + width)
  }

  private reference(kind: 'variable' | 'formula', closer: '}}' | ']]'): Token {
    const start = this.pos
    const close = this.source.indexOf(closer, start + 2)
    const what = kind === 'variable' ? 'variable' : 'formula'
    if (close < 0) {
      fail(ExprErrorCode.UnterminatedReference, `This ${what} name is missing its closing ${closer}.`, start, this.source.length)
    }
    this.pos = close + 2
    const name = this.source.slice(start + 2, close).trim()
    if (!NAME_PATTERN.test(name)) {
      fail(
        ExprErrorCode.InvalidName,
        `"${name}" is not a valid ${what} name: names start with a letter or digit and contain only letters, digits, _ or ?.`,
        start,
        this.pos,
      )
    }
    return { kind, name, start, end: this.pos }
  }

  private string(quote: string): Token {
    const src = this.source
    const start = this.pos
    let value = ''
    let i = start + 1
    while (i < src.length && src[i] !== quote) {
      const ch = src[i]!
      if (ch !== '\\') {
        value += ch
        i++
        continue
      }
      const esc = src[i + 1]
      if (esc !== undefined && ESCAPES[esc] !== undefined) {
        value += ESCAPES[esc]
        i += 2
      } else if (esc === 'u' && /^[0-9a-fA-F]{4}$/.test(src.slice(i + 2, i + 6))) {
        value += String.fromCharCode(parseInt(src.slice(i + 2, i + 6), 16))
        i += 6
      } else {
        fail(
          ExprErrorCode.InvalidEscape,
          'After a backslash in text write one of \\\\ \\\' \\" \\n \\t \\r \\/ or \\u followed by 4 hex digits.',
          i,
          Math.min(i + 2, src.length),
        )
      }
    }
    if (i >= src.length) fail(ExprErrorCode.UnterminatedString, `This text has no closing ${quote}.`, start, src.length)
    this.pos = i + 1
    return { kind: 'string', value, start, end: this.pos }
  }

  private date(): Token {
    const start = this.pos
    const close = this.source.indexOf('#', start + 1)
    if (close < 0 || close - start > MAX_DATE_LITERAL) {
      fail(ExprErrorCode.InvalidDateLiteral, 'Write a date between # signs, for example #2024-05-01#.', start, start + 1)
    }
    this.pos = close + 1
    const value = requireIsoDate(this.source.slice(start + 1, close), { start, end: this.pos }, ExprErrorCode.InvalidDateLiteral)
    return { kind: 'date', value, start, end: this.pos }
  }

  private numberOrName(): Token {
    const src = this.source
    const start = this.pos
    const name = matchAt(NAME_RUN, src, start)!
    const number = matchAt(NUMBER, src, start)!
    if (name.length > number.length) {
      this.pos = start + name.length
      return { kind: 'name', text: name, start, end: this.pos }
    }
    this.pos = start + number.length
    const span: SourceSpan = { start, end: this.pos }
    if (matchAt(NAME_RUN, src, this.pos) !== undefined) {
      const word = src.slice(start, this.pos + matchAt(NAME_RUN, src, this.pos)!.length)
      fail(ExprErrorCode.InvalidNumberLiteral, `"${word}" is neither a number nor a name.`, start, start + word.length)
    }
    const value = Number(number)
    if (!Number.isFinite(value)) fail(ExprErrorCode.InvalidNumberLiteral, `${number} is too large a number.`, span.start, span.end)
    return { kind: 'number', value, start, end: this.pos }
  }
}
