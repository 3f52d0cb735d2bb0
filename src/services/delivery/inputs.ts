// Answers sent to the Advice API, checked before the run: an answer the variable's data type cannot take is a 400
// naming the variable (the engine would only stop at the question), and so is an answer to a variable the set
// computes itself (reserved variables, constants). Names the set does not use are ignored, so a partner can send
// the same profile to several sets.
import { EngineError, type CompiledAdviceSet } from '../../engine/index.ts'
import { coerceAnswer } from '../../engine/tree/inputs.ts'
import { RESERVED_SLOTS } from '../../engine/tree/slots.ts'
import { isShapeParameter } from './fields.ts'
import { ValidationError } from '../errors.ts'

/** The query parameters that are answers: all but the fieldsets and filters (the query itself when it has none). */
export function inputsFromQuery(query: Record<string, unknown>): Record<string, unknown> {
  let inputs: Record<string, unknown> | undefined
  for (const name in query) {
    if (!isShapeParameter(name)) continue
    inputs ??= { ...query }
    delete inputs[name]
  }
  return inputs ?? query
}

export function checkInputs(compiled: CompiledAdviceSet, inputs: Record<string, unknown>): void {
  for (const name of Object.keys(inputs)) {
    const slot = compiled.variableIndex.get(name)
    if (slot === undefined) continue
    const info = compiled.variables[slot]!
    if (slot < RESERVED_SLOTS || info.isConstant) {
      throw new ValidationError(name, `${name}: is set by the advice set, not answered.`)
    }
    const answer = coerceAnswer(info, inputs)
    if (answer instanceof EngineError) throw new ValidationError(name, `${name}: ${answer.message}`)
  }
}
