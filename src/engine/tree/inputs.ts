// Reading one input for a variable. Answers arrive raw (form fields, API JSON) and are coerced with the
// variable's data type; the common exact cases (a JSON number for a number, a boolean for true/false, an option
// spelled as the author wrote it) skip the general coercion, with the result it would give.
import { EngineError } from '../errors.ts'
import { coerceInput } from '../types/index.ts'
import type { Value } from '../value.ts'
import { rawToValue } from './raw-value.ts'
import type { VariableSlot } from './compiled.ts'

/** Which exact case a variable's answers can take without coercion (VariableSlot.fastInput). */
export const FAST_NONE = 0
export const FAST_NUMBER = 1
export const FAST_BOOLEAN = 2
export const FAST_CHOICE = 3

export function fastInputOf(dataType: VariableSlot['dataType'], hasChoices: boolean): number {
  if (dataType === 'number') return FAST_NUMBER
  if (dataType === 'boolean') return FAST_BOOLEAN
  return hasChoices ? FAST_CHOICE : FAST_NONE
}

/** The input given for a variable: its value, an error when it cannot be used, undefined when there is none. */
export function coerceAnswer(info: VariableSlot, inputs: Record<string, unknown>): Value | EngineError | undefined {
  const raw = inputs[info.name]
  // Only own properties are answers: {{constructor}} must not read Object.prototype's.
  if (raw === undefined || raw === null || (info.inheritable && !Object.hasOwn(inputs, info.name))) return undefined
  switch (info.fastInput) {
    case FAST_NUMBER:
      if (typeof raw === 'number' && Number.isFinite(raw)) return raw
      break
    case FAST_BOOLEAN:
      if (typeof raw === 'boolean') return raw
      break
    case FAST_CHOICE:
      if (typeof raw === 'string') {
        const option = info.choiceAnswers!.get(raw)
        if (option !== undefined) return option
      }
      break
  }
  if (info.dataType === undefined) {
    const value = rawToValue(raw)
    if (value === undefined) return new EngineError('INVALID_INPUT', `The answer given for {{${info.name}}} is not a value.`)
    return value === null ? undefined : value
  }
  const coerced = coerceInput(info.dataType, raw, info.options ? { options: info.options } : undefined)
  if (!coerced.ok) return new EngineError(coerced.code, coerced.message)
  return coerced.value === null ? undefined : coerced.value
}
