import type { Value } from '../value.ts'

/** A tag's value as the caller resolved it; `questionNodeId` is the Input Request that set it (the backlink). */
export interface ResolvedTag {
  value: Value
  formatted: string
  questionNodeId?: string
}

/** The resolution of each tag occurrence of a compiled template, by occurrence number; `undefined` = missing. */
export type TagValues = ReadonlyArray<ResolvedTag | undefined>
