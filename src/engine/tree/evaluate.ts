import type { CompiledAdviceSet } from './compiled.ts'
import type { EvaluateOptions } from './options.ts'
import type { EngineResult } from './result.ts'
import { Run } from './runner.ts'

/**
 * Runs the rules in order against the given inputs (raw answers keyed by variable name, coerced with each
 * variable's data type when first read). Synchronous and pure: API answers come from `options.apiPort`.
 */
export function evaluate(
  compiled: CompiledAdviceSet,
  inputs: Record<string, unknown>,
  options: EvaluateOptions = {},
): EngineResult {
  return new Run(compiled, inputs, options).execute()
}
