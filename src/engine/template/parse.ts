// `{{Var}}` and `[[Formula]]` inside advice text, headlines and questions. Names follow SPEC §5 exactly as the
// expression language reads them (expr/names.ts NAME_PATTERN; a test keeps the two in step), and spaces just
// inside the brackets are allowed, as in `{{ Var }}`. Anything else between brackets is ordinary text.
const NAME = '[\\p{L}\\p{Nd}][\\p{L}\\p{Nd}_?]*'
const TAG = new RegExp(`\\{\\{\\s*(${NAME})\\s*\\}\\}|\\[\\[\\s*(${NAME})\\s*\\]\\]`, 'gu')

export type TagKind = 'variable' | 'formula'

export type TemplatePart = { kind: 'text'; text: string } | { kind: TagKind; name: string; raw: string }

export interface TemplateTag {
  kind: TagKind
  name: string
}

/** Splits a template into text and tags, in order; text parts are never empty and never adjacent. */
export function parseTemplate(text: string): TemplatePart[] {
  const parts: TemplatePart[] = []
  let last = 0
  for (const match of text.matchAll(TAG)) {
    const start = match.index
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) })
    const variable = match[1]
    parts.push(
      variable === undefined
        ? { kind: 'formula', name: match[2]!, raw: match[0] }
        : { kind: 'variable', name: variable, raw: match[0] },
    )
    last = start + match[0].length
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) })
  return parts
}

/** Each distinct tag of a template once, in order of first appearance. */
export function templateTags(text: string): TemplateTag[] {
  const seen = new Set<string>()
  const tags: TemplateTag[] = []
  for (const part of parseTemplate(text)) {
    if (part.kind === 'text') continue
    const key = `${part.kind}:${part.name}`
    if (seen.has(key)) continue
    seen.add(key)
    tags.push({ kind: part.kind, name: part.name })
  }
  return tags
}

/**
 * SPEC §5 "undefined variables or formulas in output are detected by pattern": the tags of a template whose names
 * are not among the known variables and formulas, each once, in order.
 */
export function findUndefinedTags(
  text: string,
  known: { variables: ReadonlySet<string>; formulas: ReadonlySet<string> },
): TemplateTag[] {
  return templateTags(text).filter((tag) => !(tag.kind === 'variable' ? known.variables : known.formulas).has(tag.name))
}
