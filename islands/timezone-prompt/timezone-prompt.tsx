// Asks once per browser timezone whether to store it as the user's preference. Renders nothing itself.
import { useEffect } from 'react'
import { callApi } from '../shared/api.ts'
import { currentPreferences, replacePreferences } from '../shared/context.ts'
import type { Preferences } from '../shared/context.ts'
import { confirmDialog } from '../shared/dialogs.ts'
import { isRecord } from '../shared/guards.ts'
import { notify } from '../shared/notify.ts'
import { DECLINED_TIMEZONE_KEY, TIMEZONE_NOTICE_MS, shouldOfferTimezone } from './decision.ts'

export interface TimezonePromptProps {
  tz: string | null
}

async function storeTimezone(tz: string): Promise<Preferences> {
  const body = await callApi('/api/user/preferences', {
    method: 'POST',
    form: { newPreferences: JSON.stringify({ ...currentPreferences(), tz }) },
  })
  if (isRecord(body) && isRecord(body.data) && isRecord(body.data.preferences)) return body.data.preferences
  throw new Error('The preferences response had no data.preferences')
}

async function offerTimezone(preferred: string | null): Promise<void> {
  const browser = Intl.DateTimeFormat().resolvedOptions().timeZone
  const situation = { preferred, browser, declined: localStorage.getItem(DECLINED_TIMEZONE_KEY) }
  if (!shouldOfferTimezone(situation)) return
  const accepted = await confirmDialog({
    heading: 'Update your timezone?',
    text: preferred
      ? `Your browser is set to ${browser} but your profile uses ${preferred}. Show dates and times in ${browser}?`
      : `Show dates and times in your browser's timezone, ${browser}?`,
  })
  if (!accepted) {
    localStorage.setItem(DECLINED_TIMEZONE_KEY, browser)
    return
  }
  replacePreferences(await storeTimezone(browser))
  notify({ type: 'success', text: `Timezone updated to ${browser}.`, timeout: TIMEZONE_NOTICE_MS })
}

export function TimezonePrompt({ tz }: TimezonePromptProps) {
  useEffect(() => {
    // The SPEC gives this call no global error handling: a failure is only logged, and the offer returns next time.
    offerTimezone(tz).catch((error: unknown) => console.error('Could not update the timezone preference', error))
  }, [tz])
  return null
}
