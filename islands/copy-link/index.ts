import { defineIsland } from '../shared/define-island.ts'
import { CopyLink } from './copy-link.tsx'
import { parseCopyLinkProps } from './props.ts'

export const copyLinkIsland = defineIsland(CopyLink, parseCopyLinkProps)
