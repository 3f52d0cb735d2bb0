import { defineIsland } from '../shared/define-island.ts'
import { parseScreenerProps } from './props.ts'
import { Screener } from './screener.tsx'

export const screenerIsland = defineIsland(Screener, parseScreenerProps)
