import { defineIsland } from '../shared/define-island.ts'
import { SetImport } from './set-import.tsx'
import { parseSetImportProps } from './props.ts'

export const setImportIsland = defineIsland(SetImport, parseSetImportProps)
