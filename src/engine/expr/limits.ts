/** Longest expression source accepted; keeps parsing time bounded for hostile input. */
export const MAX_EXPRESSION_LENGTH = 10_000
/** Deepest nesting accepted; keeps every recursive walk (parse, compile, print, evaluate) far from stack limits. */
export const MAX_EXPRESSION_DEPTH = 200
/** Longest text `.match(...)` will test; bounds the cost of a slow pattern. */
export const MAX_MATCH_SUBJECT_LENGTH = 10_000
