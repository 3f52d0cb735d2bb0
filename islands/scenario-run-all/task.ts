// Starting the run-all job (/api/advicescenario/test, background) and showing the list as the server renders it now.
import { callApi } from '../shared/api.ts'
import { isRecord } from '../shared/guards.ts'

/** Starts the job; returns it as /api/job shows it, for the jobs panel to track. */
export async function startRunAll(adviceSetId: number, source: string): Promise<Record<string, unknown>> {
  const response = await callApi('/api/advicescenario/test', { json: { adviceSetId, source, background: true } })
  if (!isRecord(response) || !isRecord(response.data) || typeof response.data.id !== 'number') throw new Error('The server did not say which job it started.')
  return response.data
}

/**
 * The list as the server now renders it: the page is fetched again and its list, counts and filter replace the ones
 * shown, so every row's status, last run and differences are the server's own markup.
 */
export async function refreshList(): Promise<void> {
  const response = await fetch(window.location.href, { headers: { accept: 'text/html' }, credentials: 'same-origin' })
  if (!response.ok) throw new Error(`The list could not be reloaded (status ${response.status}).`)
  const page = new DOMParser().parseFromString(await response.text(), 'text/html')
  for (const selector of ['[data-fragment="scenario-list"]', '.scenario-counts', '.scenario-filter']) {
    const fresh = page.querySelector(selector)
    const shown = document.querySelector(selector)
    if (fresh && shown) shown.replaceWith(fresh)
  }
}
