import type { Value } from '../value.ts'

/** A tag's value as the caller resolved it; `questionNodeId` is the Input Request that set it (the backlink). */
export interface ResolvedTag {
  value: Value
  formatted: string
  questionNodeId?: string | undefined
  /**
   * The html content type's chip for this value, kept here once made (html.ts): a run resolves each variable once
   * and shows it in many texts. `open` is the chip's opening tag, which names the tag as written.
   */
  htmlChip?: { open: string; plain: string; linked?: string | undefined } | undefined
}

/** The resolution of each tag occurrence of a compiled template, by occurrence number; `undefined` = missing. */
export type TagValues = ReadonlyArray<ResolvedTag | undefined>

/**
 * A resolved tag made during a run. A class, not an object literal: a full response on a big set keeps hundreds of
 * these alive through young-generation collections, and V8 then allocates a literal's every later object straight in
 * the old generation (allocation-site pretenuring), where each costs a full collection. `new` has no such site.
 */
export class RunResolvedTag implements ResolvedTag {
  htmlChip: HtmlChip | undefined = undefined
  constructor(
    readonly value: Value,
    readonly formatted: string,
    readonly questionNodeId: string | undefined,
  ) {}
}

/** A chip's markup for one value (ResolvedTag.htmlChip); a class for the reason RunResolvedTag is one. */
export class HtmlChip {
  linked: string | undefined = undefined
  constructor(
    readonly open: string,
    readonly plain: string,
  ) {}
}
