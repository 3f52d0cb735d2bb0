// Reading mapped variables out of a JSON answer: a JSON pointer (RFC 6901, `/rates/0/value`) or a path
// (`rates[0].value`, `data.rate`), then coerced to the mapping's data type as an answer would be. Only own
// properties are followed, so a path can never reach into prototypes.
import { coerceInput, isDataType, type Value } from '../../engine/index.ts'

export type PathStep = string | number

/** The steps of a pointer or path; throws with a message naming what is wrong. */
export function parsePath(path: string): PathStep[] {
  const text = path.trim()
  if (text === '' || text === '/') return []
  if (text.startsWith('/')) {
    return text.slice(1).split('/').map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
  }
  const steps: PathStep[] = []
  const pattern = /([^.[\]]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/gy
  let expectDot = false
  let index = 0
  while (index < text.length) {
    if (expectDot && text[index] === '.') index++
    pattern.lastIndex = index
    const match = pattern.exec(text)
    if (!match) throw new Error(`cannot read "${text}" from character ${index + 1}; write a/b/0 as /a/b/0 or a.b[0]`)
    if (match[1] !== undefined) steps.push(match[1])
    else if (match[2] !== undefined) steps.push(Number(match[2]))
    else steps.push(JSON.parse(`"${match[3]}"`) as string)
    index = pattern.lastIndex
    expectDot = true
  }
  return steps
}

/** The value at `steps`, or undefined when the answer has nothing there. */
export function valueAt(document: unknown, steps: readonly PathStep[]): unknown {
  let current = document
  for (const step of steps) {
    if (Array.isArray(current)) {
      const index = typeof step === 'number' ? step : /^\d+$/.test(step) ? Number(step) : NaN
      if (!(index >= 0 && index < current.length)) return undefined
      current = current[index]
    } else if (current !== null && typeof current === 'object') {
      const key = String(step)
      if (!Object.hasOwn(current, key)) return undefined
      current = (current as Record<string, unknown>)[key]
    } else {
      return undefined
    }
  }
  return current
}

export type MappedValue = { ok: true; value: Value } | { ok: false; message: string }

/** One mapping applied to a parsed answer. */
export function mapValue(document: unknown, mapping: { path: string; dataType: string }): MappedValue {
  let found: unknown
  try {
    found = valueAt(document, parsePath(mapping.path))
  } catch (error) {
    return { ok: false, message: `the path ${mapping.path} is not valid (${(error as Error).message})` }
  }
  if (found === undefined) return { ok: false, message: `the answer has nothing at ${mapping.path}` }
  if (found !== null && typeof found === 'object' && !Array.isArray(found)) return { ok: false, message: `the answer has an object at ${mapping.path}, not a value` }
  const type = isDataType(mapping.dataType) ? mapping.dataType : 'freetext'
  const coerced = coerceInput(type, found)
  if (!coerced.ok) return { ok: false, message: `the value at ${mapping.path} is not a ${type}: ${coerced.message}` }
  return { ok: true, value: coerced.value }
}
