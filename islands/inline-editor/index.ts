import { defineIsland } from '../shared/define-island.ts'
import { InlineEditor } from './inline-editor.tsx'
import { parseInlineEditorProps } from './props.ts'

export const inlineEditorIsland = defineIsland(InlineEditor, parseInlineEditorProps)
