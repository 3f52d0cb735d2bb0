import { isRecord } from '../shared/guards.ts'

export interface TimezonePromptProps {
  /** The user's stored timezone preference; null when they have none. */
  tz: string | null
}

export function parseTimezonePromptProps(raw: unknown): TimezonePromptProps {
  return { tz: isRecord(raw) && typeof raw.tz === 'string' && raw.tz !== '' ? raw.tz : null }
}
