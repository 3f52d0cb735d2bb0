// The tree builder's one call: POST /api/advicescenario/{id}/fork — a panel (with a preview when a value is sent), or
// with save the new scenario.
import { callApi } from '../shared/api.ts'
import { isRecord } from '../shared/guards.ts'
import { parseForkPanel, type ForkPanel } from './props.ts'

export interface ForkCall { question?: string; value?: string; name?: string }

function dataOf(response: unknown): unknown {
  if (!isRecord(response) || !('data' in response)) throw new Error('The server sent no data.')
  return response.data
}

export async function loadFork(scenarioId: number, call: ForkCall): Promise<ForkPanel> {
  return parseForkPanel(dataOf(await callApi(`/api/advicescenario/${scenarioId}/fork`, { json: call })))
}

export async function saveFork(scenarioId: number, call: ForkCall & { value: string }): Promise<{ id: number }> {
  const data = dataOf(await callApi(`/api/advicescenario/${scenarioId}/fork`, { json: { ...call, save: true } }))
  if (!isRecord(data) || typeof data.id !== 'number') throw new Error('The server did not say which scenario it saved.')
  return { id: data.id }
}
