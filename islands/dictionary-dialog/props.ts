import { InvalidPropsError } from '../shared/define-island.ts'
import { isRecord } from '../shared/guards.ts'
import { parseChoices } from '../dictionary-editor/values.ts'
import type { Choice, SetChoice } from '../dictionary-editor/values.ts'

export interface DictionaryDialogProps {
  adviceSets: SetChoice[]
  dataTypes: Choice[]
}

export function parseDictionaryDialogProps(raw: unknown): DictionaryDialogProps {
  if (!isRecord(raw)) throw new InvalidPropsError('dictionary-dialog needs an object')
  return parseChoices(raw)
}
