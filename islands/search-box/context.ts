// The parts of the page's app context (`<script id="app-context">`) the search box needs.
import { isRecord } from '../shared/guards.ts'

export interface SearchContext {
  currentOwnerId: string | null
  currentAdviceSetId: string | null
  currentRuleId: string | null
}

const idOf = (value: unknown): string | null => {
  if (!isRecord(value)) return null
  return typeof value.id === 'string' || typeof value.id === 'number' ? String(value.id) : null
}

export function parseSearchContext(json: string | null | undefined): SearchContext {
  let context: unknown = null
  try {
    context = JSON.parse(json ?? 'null')
  } catch {
    // A page without a readable context still searches; it just cannot say "This advice set".
  }
  const record = isRecord(context) ? context : {}
  const user = isRecord(record.currentUser) ? record.currentUser : {}
  return {
    currentOwnerId: typeof user.ownerId === 'string' ? user.ownerId : null,
    currentAdviceSetId: idOf(record.currentAdviceSet),
    currentRuleId: idOf(record.currentRule),
  }
}
