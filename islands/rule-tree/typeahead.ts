// `{{` lists variables and `[[` formulas of the dictionary, filtered by what the author typed after the brackets;
// choosing one writes the whole reference. Pure text-and-caret functions, so the editor stays thin.
import type { DictionaryEntry } from './props.ts'

export interface Trigger {
  kind: 'variable' | 'formula'
  /** Where the opening brackets start. */
  start: number
  /** What follows the brackets up to the caret. */
  query: string
}

const OPEN = { '{{': 'variable', '[[': 'formula' } as const
const CLOSING = { variable: /^\s*\}\}/, formula: /^\s*\]\]/ } as const
// Name characters (SPEC §5) and spaces just inside the brackets; anything else ends the reference.
const QUERY = /^\s*[\p{L}\p{Nd}_?]*$/u

/** The reference being typed at the caret, if any: the nearest `{{` or `[[` before it that is not closed yet. */
export function triggerAt(text: string, caret: number): Trigger | null {
  const before = text.slice(0, caret)
  const variable = before.lastIndexOf('{{')
  const formula = before.lastIndexOf('[[')
  const start = Math.max(variable, formula)
  if (start < 0) return null
  const kind = OPEN[before.slice(start, start + 2) as keyof typeof OPEN]
  const query = before.slice(start + 2)
  if (!QUERY.test(query)) return null
  return { kind, start, query: query.trim() }
}

/** Entries of the trigger's kind whose name starts with the query first, then those containing it; case-insensitive. */
export function matchEntries(entries: readonly DictionaryEntry[], trigger: Trigger, limit = 8): DictionaryEntry[] {
  const query = trigger.query.toLowerCase()
  const ofKind = entries.filter((entry) => entry.kind === trigger.kind)
  const starts = ofKind.filter((entry) => entry.name.toLowerCase().startsWith(query))
  const contains = query === '' ? [] : ofKind.filter((entry) => !entry.name.toLowerCase().startsWith(query) && entry.name.toLowerCase().includes(query))
  const byName = (a: DictionaryEntry, b: DictionaryEntry) => a.name.localeCompare(b.name)
  return [...starts.sort(byName), ...contains.sort(byName)].slice(0, limit)
}

/** Replaces the typed part (and closing brackets already there) with the full reference; the caret goes after it. */
export function insertReference(text: string, caret: number, trigger: Trigger, name: string): { text: string; caret: number } {
  const reference = trigger.kind === 'variable' ? `{{${name}}}` : `[[${name}]]`
  const after = text.slice(caret).replace(/^[\p{L}\p{Nd}_?]*/u, '').replace(CLOSING[trigger.kind], '')
  return { text: text.slice(0, trigger.start) + reference + after, caret: trigger.start + reference.length }
}
