// Asks the server for the next step given the answers so far. Partners' frames call the Advice API with their key
// (never a cookie); the author's preview runs the working draft through the debugger with the session.
import { isRecord } from '../shared/guards.ts'
import type { AdviceSource } from '../../src/services/delivery/embed.ts'
import { readInterviewState, type InterviewState } from './state.ts'

export type Answers = ReadonlyMap<string, string>

const HTML_ADVICE = 'application/vnd.advicestudio.json+html'

function request(adviceSetId: number, source: AdviceSource, answers: Answers): { url: string; init: RequestInit } {
  const inputs = Object.fromEntries(answers)
  if (source.kind === 'key') {
    return {
      url: `/api/advice/${adviceSetId}`,
      init: {
        method: 'POST',
        credentials: 'omit',
        // x-advice-client: the steps of this interview are counted by it (feedback.ts), not as a partner's runs.
        headers: { 'authorization': `Bearer ${source.key}`, 'accept': HTML_ADVICE, 'content-type': 'application/json', 'x-advice-client': 'embed' },
        body: JSON.stringify({ inputs }),
      },
    }
  }
  return {
    url: '/api/rule/debug',
    init: {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'x-csrf-token': source.csrfToken, 'accept': 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ adviceSetId, inputs, contentType: 'html' }),
    },
  }
}

export class AdviceRequestError extends Error {
  override readonly name = 'AdviceRequestError'

  /** The answer the server refused (a 400 names its variable as the field). */
  constructor(message: string, readonly field?: string) {
    super(message)
  }
}

export async function fetchInterviewState(adviceSetId: number, source: AdviceSource, answers: Answers): Promise<InterviewState> {
  const { url, init } = request(adviceSetId, source, answers)
  let response: Response
  try {
    response = await fetch(url, init)
  } catch {
    throw new AdviceRequestError('The advice service could not be reached. Check your connection and try again.')
  }
  const body: unknown = await response.json().catch(() => undefined)
  const data = isRecord(body) ? body.data : undefined
  if (!response.ok || !isRecord(data)) {
    const error = isRecord(body) && isRecord(body.error) ? body.error : {}
    const message = typeof error.message === 'string' ? error.message : `${response.status} ${response.statusText}`.trim()
    throw new AdviceRequestError(message, response.status === 400 && typeof error.field === 'string' ? error.field : undefined)
  }
  return readInterviewState(source.kind === 'key' ? data : data.result)
}
