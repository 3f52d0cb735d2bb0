// Trailing-edge debounce: only the last call of a burst runs, `ms` after it. Uses the page's timers, so
// tests drive it with a fake clock.

export interface Debounced<A extends unknown[]> {
  (...args: A): void
  cancel(): void
}

export function debounce<A extends unknown[]>(run: (...args: A) => void, ms: number): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const debounced = (...args: A) => {
    clearTimeout(timer)
    timer = setTimeout(() => { timer = undefined; run(...args) }, ms)
  }
  debounced.cancel = () => { clearTimeout(timer); timer = undefined }
  return debounced
}
