// The rule tree's writes to the dictionary, through the dictionary's own API (/api/entity, as the dictionary pages
// save): an entry a node names that the dictionary lacks, created in place, and a formula's expression, which a
// Formula node edits (the dictionary formula is its one definition).
import { DATA_TYPES, INPUT_TYPES, type DataType } from '../../src/engine/types/data-types.ts'
import { apiBody, emptyValues } from '../dictionary-editor/values.ts'
import { announceCreatedEntity } from '../entity-sync/announce.ts'
import { callApi } from '../shared/api.ts'
import { isRecord } from '../shared/guards.ts'
import type { DictionaryEntry } from './props.ts'

export interface NewEntry {
  kind: 'variable' | 'formula'
  name: string
  /** '' leaves it unset. */
  dataType: string
  /** Select and Radio: one option per line. */
  options: string
  /** Formulas: what they compute. */
  expression: string
}

/** The data types an entry can have, labelled as the dictionary labels them. */
export const DATA_TYPE_CHOICES: ReadonlyArray<{ value: DataType; label: string }> = DATA_TYPES.map((type) => ({ value: type, label: INPUT_TYPES[type].label }))

/** Data types whose answers are picked from the entry's options. */
export function takesOptions(dataType: string): boolean {
  return dataType === 'select' || dataType === 'radio'
}

export async function createEntry(entry: NewEntry): Promise<DictionaryEntry> {
  const withOptions = takesOptions(entry.dataType) && entry.options.trim() !== ''
  const values = {
    ...emptyValues(entry.kind), reservedName: entry.name, dataType: entry.dataType, validOptions: withOptions ? entry.options : '',
    // Options offered as choices are the only answers a Select or Radio takes.
    isClosedSet: withOptions, expression: entry.expression,
  }
  const answer = await callApi('/api/entity', { method: 'POST', json: apiBody(values) })
  const data = isRecord(answer) ? answer.data : null
  announceCreatedEntity(data)
  const id = isRecord(data) ? Number(data.id) : Number.NaN
  return {
    id, name: entry.name, kind: entry.kind, dataType: entry.dataType || null,
    expression: entry.kind === 'formula' ? entry.expression.trim() || null : null,
  }
}

export async function setFormulaExpression(formula: DictionaryEntry, expression: string): Promise<DictionaryEntry> {
  await callApi(`/api/entity/${formula.id}`, { method: 'PATCH', json: { expression: expression.trim() || null } })
  return { ...formula, expression: expression.trim() || null }
}
