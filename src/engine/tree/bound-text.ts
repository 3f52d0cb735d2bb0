import { prepareText, type HtmlTemplate, type PreparedText } from '../content/index.ts'
import type { CompiledAdviceSet } from './compiled.ts'

/**
 * A text of a compiled set (a headline, advice text or question), prepared for rendering once per set, with each
 * tag bound to what it reads: a run resolves it by index, as compiled expressions read their slots, instead of
 * looking the name up on every render.
 */
export interface BoundText {
  readonly prepared: PreparedText
  /** Per tag occurrence (prepared.tags): a variable slot (≥ 0), a formula (FORMULA_REF - index), or NO_REF. */
  readonly refs: readonly number[]
  /** prepared.firstOf, kept here too: a render reads it for every tag, and need not step through `prepared`. */
  readonly firstOf: readonly number[]
  /** The html content type's template, kept here once compiled: the common render reads it in one step. */
  html?: HtmlTemplate
}

/** The tag names nothing in the set: it renders as missing. */
export const NO_REF = -1
/** Formula index i is bound as FORMULA_REF - i. */
export const FORMULA_REF = -2

export function bindText(text: string, compiled: CompiledAdviceSet): BoundText {
  const prepared = prepareText(text)
  const refs = prepared.tags.map((tag) => {
    if (tag.kind === 'formula') {
      const index = compiled.formulaIndex.get(tag.name)
      return index === undefined ? NO_REF : FORMULA_REF - index
    }
    return compiled.variableIndex.get(tag.name) ?? NO_REF
  })
  // html is declared now, though kept on the first html render: a field added later lives out of the object.
  return { prepared, refs, firstOf: prepared.firstOf, html: undefined }
}
