// The timezone prompt island: renders nothing, asks once per browser timezone (offer.ts). Plain DOM, mounted by
// the loader, so signed-in pages need no React for it.
import { readIslandProps } from '../shared/read-props.ts'
import { offerTimezone } from './offer.ts'
import { parseTimezonePromptProps } from './props.ts'

export function mountTimezonePrompt(element: HTMLElement): void {
  const { tz } = parseTimezonePromptProps(readIslandProps(element, 'timezone-prompt'))
  // The SPEC gives this call no global error handling: a failure is only logged, and the offer returns next time.
  offerTimezone(tz).catch((error: unknown) => console.error('Could not update the timezone preference', error))
  element.dataset.islandState = 'mounted'
}
