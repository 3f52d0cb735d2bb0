import type { Value } from '../value.ts'

/** A tag's value as the caller resolved it; `questionNodeId` is the Input Request that set it (the backlink). */
export interface ResolvedTag {
  value: Value
  formatted: string
  questionNodeId?: string
  /**
   * The html content type's chip for this value, kept here once made (html.ts): a run resolves each variable once
   * and shows it in many texts. `open` is the chip's opening tag, which names the tag as written.
   */
  htmlChip?: { open: string; plain: string; linked?: string }
}

/** The resolution of each tag occurrence of a compiled template, by occurrence number; `undefined` = missing. */
export type TagValues = ReadonlyArray<ResolvedTag | undefined>
