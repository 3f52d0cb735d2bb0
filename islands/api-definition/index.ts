import { defineIsland } from '../shared/define-island.ts'
import { ApiDefinition } from './api-definition.tsx'
import { parseApiDefinitionProps } from './props.ts'

export const apiDefinitionIsland = defineIsland(ApiDefinition, parseApiDefinitionProps)
