import { defineIsland } from '../shared/define-island.ts'
import { TagPicker } from './tag-picker.tsx'
import { parseTagPickerProps } from './props.ts'

export const tagPickerIsland = defineIsland(TagPicker, parseTagPickerProps)
