import type { Value } from '../value.ts'
import type { DataType } from './data-types.ts'
import { coerceArray } from './coerce-array.ts'
import { coerceBoolean } from './coerce-boolean.ts'
import { coerceChoice } from './coerce-choice.ts'
import { coerceDate } from './coerce-date.ts'
import { coerceNumber, coercePercent } from './coerce-number.ts'
import { coerceFreetext } from './coerce-text.ts'
import { accepted, isBlankInput } from './result.ts'

export { typedNumber } from './coerce-number.ts'
export { DATA_TYPES, INPUT_TYPES, isDataType, type DataType, type InputTypeInfo } from './data-types.ts'

/**
 * Turns an answer from a form or the API into a value of the question's data type. Blank answers (null,
 * undefined, '' or spaces) are "no value" for every type; whether an answer is required is the question's concern.
 * Failures carry a stable code and a message written for the person answering.
 */
export function coerceInput(
  type: DataType,
  raw: unknown,
  opts?: { options?: string[] },
): { ok: true; value: Value } | { ok: false; code: string; message: string } {
  if (isBlankInput(raw)) return accepted(null)
  switch (type) {
    case 'array':
      return coerceArray(raw, opts?.options)
    case 'date':
      return coerceDate(raw)
    case 'freetext':
      return coerceFreetext(raw)
    case 'number':
      return coerceNumber(raw)
    case 'percent':
      return coercePercent(raw)
    case 'boolean':
      return coerceBoolean(raw)
    case 'select':
    case 'radio':
      return coerceChoice(raw, opts?.options)
  }
}
