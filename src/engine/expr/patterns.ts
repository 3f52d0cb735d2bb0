// Authors' `.match()` patterns, compiled for a linear-time engine (RE2 semantics through re2js).
//
// JavaScript's own RegExp backtracks: `(a|a)*$`, `(.*a){12}$` or `\d+\d+\d+x` take minutes on a 10,000-character
// near-miss, and no up-front check of the pattern's shape catches every such form. RE2 never backtracks, so every
// test is proportional to pattern size × text length whatever the author wrote. The price: back-references and
// lookaround, which need backtracking, are refused with a message saying so.
import { RE2JS } from 're2js'
import { EngineError, type SourceSpan } from '../errors.ts'
import { ExprErrorCode } from './error-codes.ts'
import { MAX_PATTERN_LENGTH, MAX_PATTERN_STEPS } from './limits.ts'

/** `g` and `y` would make a pattern remember where it stopped, so the same test could answer differently twice. */
const ALLOWED_FLAGS = /^(?!.*(.).*\1)[imsu]*$/

/** A compiled pattern: tests whether it occurs anywhere in a text. */
export interface Pattern {
  test(subject: string): boolean
}

function flagBits(flags: string): number {
  let bits = 0
  if (flags.includes('i')) bits |= RE2JS.CASE_INSENSITIVE
  if (flags.includes('m')) bits |= RE2JS.MULTILINE
  if (flags.includes('s')) bits |= RE2JS.DOTALL
  // `u` needs nothing: RE2 always reads text by code point.
  return bits
}

/** JavaScript's `\uXXXX` and `\u{X…}` escapes, which RE2 spells `\x{X…}`; every other escape is left as written. */
function toRe2Syntax(pattern: string): string {
  let out = ''
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!
    if (ch !== '\\') {
      out += ch
      continue
    }
    const escape = /^u(?:([0-9a-fA-F]{4})|\{([0-9a-fA-F]{1,6})\})/.exec(pattern.slice(i + 1, i + 10))
    if (escape) {
      out += `\\x{${escape[1] ?? escape[2]}}`
      i += escape[0].length
    } else {
      out += ch + (pattern[i + 1] ?? '')
      i++
    }
  }
  return out
}

/**
 * Compiled patterns by flags and source. RE2 compiles in tenths of a millisecond, and the parser (to check) and the
 * compiler (to run) each ask for the same pattern; a compiled pattern keeps no state, so one serves every caller.
 */
const compiled = new Map<string, Pattern>()
const MAX_CACHED = 2_000

/** Compiles an author's pattern, or throws INVALID_PATTERN with a message that says what to change. */
export function compilePattern(pattern: string, flags: string, span: SourceSpan): Pattern {
  const key = `${flags}/${pattern}`
  const cached = compiled.get(key)
  if (cached) return cached
  const fresh = compileUncached(pattern, flags, span)
  if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value!)
  compiled.set(key, fresh)
  return fresh
}

function compileUncached(pattern: string, flags: string, span: SourceSpan): Pattern {
  if (!ALLOWED_FLAGS.test(flags)) {
    throw new EngineError(ExprErrorCode.InvalidPattern, `Pattern options can only be i, m, s or u (each once), not "${flags}".`, { span })
  }
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new EngineError(ExprErrorCode.InvalidPattern, `A pattern can be at most ${MAX_PATTERN_LENGTH} characters; this one has ${pattern.length}.`, { span })
  }
  try {
    // Checked as JavaScript first, so a plain mistake is described the way authors know it.
    new RegExp(pattern, flags)
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message.replace(/^Invalid regular expression: /, '') : String(cause)
    throw new EngineError(ExprErrorCode.InvalidPattern, `This pattern is not valid (${reason}).`, { span, cause })
  }
  let regex: RE2JS
  try {
    regex = RE2JS.compile(toRe2Syntax(pattern), flagBits(flags))
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message.replace(/^error parsing regexp: /, '') : String(cause)
    throw new EngineError(
      ExprErrorCode.InvalidPattern,
      `This pattern is not valid here (${reason}); look-ahead, look-behind and back-references are not supported.`,
      { span, cause },
    )
  }
  if (regex.programSize() > MAX_PATTERN_STEPS) {
    throw new EngineError(
      ExprErrorCode.InvalidPattern,
      'This pattern is too large to check quickly (it repeats or lists too many parts); simplify it.',
      { span },
    )
  }
  return { test: (subject) => regex.test(subject) }
}
