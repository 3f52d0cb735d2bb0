// Engine tests that expect a failure: the EngineError it raised, or a test failure when it raised none.
import { EngineError } from '../../src/engine/errors.ts'

export function engineErrorOf(action: () => unknown, source: string): EngineError {
  try {
    action()
  } catch (error) {
    if (error instanceof EngineError) return error
    throw error
  }
  throw new Error(`expected ${source} to fail`)
}
