// The page context the server renders into <script id="app-context">: current user, rule and advice set.
import { isRecord } from './guards.ts'

export type Preferences = Record<string, unknown> & { tz?: string }

let preferences: Preferences | undefined

function readPreferences(): Preferences {
  const script = document.getElementById('app-context')
  try {
    const context: unknown = JSON.parse(script?.textContent ?? 'null')
    if (isRecord(context) && isRecord(context.currentUser) && isRecord(context.currentUser.preferences)) {
      return context.currentUser.preferences
    }
  } catch (error) {
    console.error('Could not parse the app context', error)
  }
  return {}
}

export function currentPreferences(): Preferences {
  preferences ??= readPreferences()
  return preferences
}

export function replacePreferences(next: Preferences): void {
  preferences = next
}
