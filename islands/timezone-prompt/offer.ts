// Asks whether to store the browser's timezone as the user's preference, and stores it on Yes.
import { callApi } from '../shared/api.ts'
import { currentPreferences, replacePreferences } from '../shared/context.ts'
import type { Preferences } from '../shared/context.ts'
import { confirmDialog } from '../shared/dialogs.ts'
import { isRecord } from '../shared/guards.ts'
import { notify } from '../shared/notify.ts'
import { DECLINED_TIMEZONE_KEY, TIMEZONE_NOTICE_MS, shouldOfferTimezone } from './decision.ts'

async function storeTimezone(tz: string): Promise<Preferences> {
  const body = await callApi('/api/user/preferences', {
    method: 'POST',
    form: { newPreferences: JSON.stringify({ ...currentPreferences(), tz }) },
  })
  if (isRecord(body) && isRecord(body.data) && isRecord(body.data.preferences)) return body.data.preferences
  throw new Error('The preferences response had no data.preferences')
}

/** Opens the dialog synchronously when an offer is due, so it is open once the island counts as mounted. */
export async function offerTimezone(preferred: string | null): Promise<void> {
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
  // Loaded only now: the date formatter stays out of the bundle every signed-in page loads.
  const { showMomentsIn } = await import('./moments.ts')
  showMomentsIn(document, browser)
  notify({ type: 'success', text: `Timezone updated to ${browser}.`, timeout: TIMEZONE_NOTICE_MS })
}
