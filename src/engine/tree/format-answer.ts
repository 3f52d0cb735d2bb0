// An answer as a run of the set shows it ("Yes", "$60,000": its variable's data type and display format), for pages
// that list answers they have not run, such as a scenario's.
import { EngineError } from '../errors.ts'
import type { CompiledAdviceSet } from './compiled.ts'
import { coerceAnswer } from './inputs.ts'
import { formatSlot } from './result.ts'

/** The answer formatted for the set's variable `name`; null when the set has no such variable or the answer does not fit it. */
export function formatAnswer(compiled: CompiledAdviceSet, name: string, raw: unknown): string | null {
  const index = compiled.variableIndex.get(name)
  if (index === undefined) return null
  const slot = compiled.variables[index]!
  // An own property whatever the name, as inputs arrive.
  const value = coerceAnswer(slot, Object.fromEntries([[name, raw]]))
  if (value === undefined || value instanceof EngineError) return null
  return formatSlot(value, slot)
}
