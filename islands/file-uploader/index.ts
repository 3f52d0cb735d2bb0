import { defineIsland } from '../shared/define-island.ts'
import { FileUploader } from './file-uploader.tsx'
import { parseFileUploaderProps } from './props.ts'

export const fileUploaderIsland = defineIsland(FileUploader, parseFileUploaderProps)
