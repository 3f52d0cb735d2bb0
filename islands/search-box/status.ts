// The search panel's request status (SPEC.md §4): idle, loading, and stalled once a request has been pending
// for STALL_MS. Only the newest request counts; an older one settling late changes nothing.
import { STALL_MS } from './constants.ts'

export type SearchStatus = 'idle' | 'loading' | 'stalled'

export interface StatusTracker {
  /** Call when a request goes out; returns its token for `settled`. */
  started(): number
  settled(token: number): void
  readonly status: SearchStatus
}

export function trackStatus(onChange: (status: SearchStatus) => void, stallMs = STALL_MS): StatusTracker {
  let status: SearchStatus = 'idle'
  let latest = 0
  let stallTimer: ReturnType<typeof setTimeout> | undefined
  const set = (next: SearchStatus) => {
    if (next === status) return
    status = next
    onChange(next)
  }
  return {
    started() {
      latest += 1
      clearTimeout(stallTimer)
      if (status === 'idle') set('loading')
      stallTimer = setTimeout(() => set('stalled'), stallMs)
      return latest
    },
    settled(token) {
      if (token !== latest) return
      clearTimeout(stallTimer)
      set('idle')
    },
    get status() { return status },
  }
}
