// When to offer the browser's timezone as the user's preference (SPEC.md §4).

/** localStorage key holding the browser timezone the user said No to, so they are not asked again for it. */
export const DECLINED_TIMEZONE_KEY = 'userCheckTimezone'
export const TIMEZONE_NOTICE_MS = 1500

export interface TimezoneSituation {
  preferred: string | null
  browser: string
  declined: string | null
}

/** Pages show UTC until a zone is chosen, so a browser in UTC has nothing to offer a user without one. */
export function shouldOfferTimezone({ preferred, browser, declined }: TimezoneSituation): boolean {
  return browser !== '' && browser !== (preferred ?? 'UTC') && browser !== declined
}
