import { defineIsland } from '../shared/define-island.ts'
import { DictionaryDialog } from './dictionary-dialog.tsx'
import { parseDictionaryDialogProps } from './props.ts'

export const dictionaryDialogIsland = defineIsland(DictionaryDialog, parseDictionaryDialogProps)
