import { EngineError, type SourceSpan } from '../errors.ts'
import { ExprErrorCode } from './error-codes.ts'

/** `g` and `y` would make a pattern remember where it stopped, so the same test could answer differently twice. */
const ALLOWED_FLAGS = /^(?!.*(.).*\1)[imsu]*$/

function isUnboundedRepeat(pattern: string, at: number): boolean {
  const ch = pattern[at]
  if (ch === '+' || ch === '*') return true
  return ch === '{' && /^\{\d+,\}/.test(pattern.slice(at, at + 12))
}

/**
 * True when a repeated group itself contains something repeated, e.g. `(a+)+` or `(\w*\s)*`: the classic shape whose
 * matching time explodes on a near-miss. Rejecting it up front keeps one author's pattern from stalling every run.
 */
function hasNestedRepetition(pattern: string): boolean {
  const groups: boolean[] = []
  let inClass = false
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]
    if (ch === '\\') {
      i++
    } else if (inClass) {
      if (ch === ']') inClass = false
    } else if (ch === '[') {
      inClass = true
    } else if (ch === '(') {
      groups.push(false)
    } else if (ch === ')') {
      const repeatsInside = groups.pop() ?? false
      const repeated = isUnboundedRepeat(pattern, i + 1)
      if (repeatsInside && repeated) return true
      if ((repeatsInside || repeated) && groups.length > 0) groups[groups.length - 1] = true
    } else if (isUnboundedRepeat(pattern, i) && groups.length > 0) {
      groups[groups.length - 1] = true
    }
  }
  return false
}

/** Compiles an author's pattern, or throws INVALID_PATTERN with a message that says what to change. */
export function compilePattern(pattern: string, flags: string, span: SourceSpan): RegExp {
  if (!ALLOWED_FLAGS.test(flags)) {
    throw new EngineError(ExprErrorCode.InvalidPattern, `Pattern options can only be i, m, s or u (each once), not "${flags}".`, { span })
  }
  let regex: RegExp
  try {
    regex = new RegExp(pattern, flags)
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message.replace(/^Invalid regular expression: /, '') : String(cause)
    throw new EngineError(ExprErrorCode.InvalidPattern, `This pattern is not valid (${reason}).`, { span, cause })
  }
  if (hasNestedRepetition(pattern)) {
    throw new EngineError(
      ExprErrorCode.InvalidPattern,
      'This pattern repeats a part that itself repeats, which can take far too long to check; simplify it.',
      { span },
    )
  }
  return regex
}
