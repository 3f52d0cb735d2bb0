// The values of a JSON answer as (pointer, value) pairs, so the author can map one with a click; and the variable
// name and data type such a mapping suggests. Pure, for the api-definition island.

export interface AnswerLeaf { pointer: string; value: unknown }

const MAX_LEAVES = 200

/** Every leaf (primitive) of the document with its JSON pointer, depth first, at most MAX_LEAVES. */
export function answerLeaves(document: unknown): AnswerLeaf[] {
  const leaves: AnswerLeaf[] = []
  const walk = (value: unknown, pointer: string) => {
    if (leaves.length >= MAX_LEAVES) return
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${pointer}/${i}`))
    else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) walk(item, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`)
    } else leaves.push({ pointer: pointer || '/', value })
  }
  walk(document, '')
  return leaves
}

/** `/data/exchange_rate` → `Exchange_Rate`: the last named step, as a variable name (SPEC §5). */
export function suggestedVariable(pointer: string): string {
  const steps = pointer.split('/').filter((step) => step !== '' && !/^\d+$/.test(step))
  const last = (steps.at(-1) ?? 'Value').replace(/~1/g, '_').replace(/~0/g, '_')
  const name = last.replace(/[^\p{L}\p{Nd}_?]+/gu, '_').replace(/^_+|_+$/g, '').split('_').map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('_')
  return /^[\p{L}\p{Nd}]/u.test(name) ? name : `Value${name ? `_${name}` : ''}`
}

export function suggestedDataType(value: unknown): string {
  if (typeof value === 'number') return 'number'
  if (typeof value === 'boolean') return 'boolean'
  if (typeof value === 'string' && /^\d{4}-\d\d-\d\d/.test(value)) return 'date'
  return 'freetext'
}

/** The {{Variable}} placeholders of the templates, each once, in order. */
export function placeholdersIn(...templates: string[]): string[] {
  const names: string[] = []
  for (const template of templates) {
    for (const match of template.matchAll(/\{\{\s*([\p{L}\p{Nd}][\p{L}\p{Nd}_?]*)\s*\}\}/gu)) if (!names.includes(match[1]!)) names.push(match[1]!)
  }
  return names
}
