import { defineIsland } from '../shared/define-island.ts'
import { isRecord } from '../shared/guards.ts'
import { TimezonePrompt } from './timezone-prompt.tsx'
import type { TimezonePromptProps } from './timezone-prompt.tsx'

function parseTimezonePromptProps(raw: unknown): TimezonePromptProps {
  return { tz: isRecord(raw) && typeof raw.tz === 'string' && raw.tz !== '' ? raw.tz : null }
}

export const timezonePromptIsland = defineIsland(TimezonePrompt, parseTimezonePromptProps)
