import { RESERVED_VARIABLES } from '../entity-types.ts'
import type { DataType } from '../types/index.ts'

/** Reserved variables take the first variable slots, in this order, so the runner reaches them by index. */
export const RESERVED_SLOT_TYPES: ReadonlyArray<readonly [string, DataType]> = [
  [RESERVED_VARIABLES.context, 'freetext'],
  [RESERVED_VARIABLES.exampleNumber, 'number'],
  [RESERVED_VARIABLES.headlineCustom, 'freetext'],
  [RESERVED_VARIABLES.apiKeyOwnerId, 'freetext'],
  [RESERVED_VARIABLES.dataApiSources, 'array'],
]
export const CONTEXT_SLOT = 0
export const EXAMPLE_NUMBER_SLOT = 1
export const HEADLINE_SLOT = 2
export const API_KEY_OWNER_SLOT = 3
export const DATA_API_SOURCES_SLOT = 4
export const RESERVED_SLOTS = RESERVED_SLOT_TYPES.length
