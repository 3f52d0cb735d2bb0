/** Longest expression source accepted; keeps parsing time bounded for hostile input. */
export const MAX_EXPRESSION_LENGTH = 10_000
/** Deepest nesting accepted; keeps every recursive walk (parse, compile, print, evaluate) far from stack limits. */
export const MAX_EXPRESSION_DEPTH = 200
/** Longest text `.match(...)` will test; bounds the cost of a slow pattern. */
export const MAX_MATCH_SUBJECT_LENGTH = 10_000
/** Longest `.match()` pattern accepted; a longer one is a list of words better kept in a variable list. */
export const MAX_PATTERN_LENGTH = 1_000
/**
 * Most steps a compiled pattern may have (RE2's program size: about one per character or repeat). Testing costs
 * steps × text length, so this and MAX_MATCH_SUBJECT_LENGTH keep one test in the tens of milliseconds at worst.
 */
export const MAX_PATTERN_STEPS = 400
