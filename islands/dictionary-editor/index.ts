import { defineIsland } from '../shared/define-island.ts'
import { DictionaryEditor } from './dictionary-editor.tsx'
import { parseDictionaryEditorProps } from './props.ts'

export const dictionaryEditorIsland = defineIsland(DictionaryEditor, parseDictionaryEditorProps)
