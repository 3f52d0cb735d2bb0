import { defineIsland } from '../shared/define-island.ts'
import { CopySecret } from './copy-secret.tsx'
import { parseCopySecretProps } from './props.ts'

export const copySecretIsland = defineIsland(CopySecret, parseCopySecretProps)
