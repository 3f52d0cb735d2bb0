// Reading one input for a variable. Answers arrive raw (form fields, API JSON) and are coerced with the
// variable's data type; the common exact cases (a JSON number for a number, a boolean for true/false, an option
// spelled as the author wrote it) skip the general coercion, with the result it would give.
import { EngineError } from '../errors.ts'
import { coerceInput } from '../types/index.ts'
import type { Value } from '../value.ts'
import { rawToValue } from './raw-value.ts'
import type { VariableSlot } from './compiled.ts'

/** The input given for a variable: its value, an error when it cannot be used, undefined when there is none. */
export function coerceAnswer(info: VariableSlot, inputs: Record<string, unknown>): Value | EngineError | undefined {
  const raw = inputs[info.name]
  // Only own properties are answers: {{constructor}} must not read Object.prototype's.
  if (raw === undefined || raw === null || (info.inheritable && !Object.hasOwn(inputs, info.name))) return undefined
  switch (info.dataType) {
    case undefined: {
      const value = rawToValue(raw)
      if (value === undefined) return new EngineError('INVALID_INPUT', `The answer given for {{${info.name}}} is not a value.`)
      return value === null ? undefined : value
    }
    case 'number':
      if (typeof raw === 'number' && Number.isFinite(raw)) return raw
      break
    case 'boolean':
      if (typeof raw === 'boolean') return raw
      break
    case 'select':
    case 'radio':
      if (typeof raw === 'string') {
        const option = info.choiceAnswers?.get(raw)
        if (option !== undefined) return option
      }
      break
  }
  const coerced = coerceInput(info.dataType, raw, info.options ? { options: info.options } : undefined)
  if (!coerced.ok) return new EngineError(coerced.code, coerced.message)
  return coerced.value === null ? undefined : coerced.value
}
