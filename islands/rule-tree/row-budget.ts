// How many rows to render now. A jump from a few rows to thousands (Expand all) is rendered a batch per frame, so
// no single frame creates thousands of rows; small changes show at once.
import { useEffect, useState } from 'react'

export const ROW_BATCH = 150

export function useRowBudget(total: number, batch = ROW_BATCH): number {
  const [budget, setBudget] = useState(batch)
  // Shrinking resets the budget, so the next big jump grows in batches again.
  if (budget > Math.max(total, batch)) setBudget(Math.max(total, batch))
  const shown = Math.min(total, budget)
  useEffect(() => {
    if (shown >= total) return
    const frame = requestAnimationFrame(() => setBudget((current) => current + batch))
    return () => cancelAnimationFrame(frame)
  }, [shown, total, batch])
  return shown
}
