// What the interview tells the studio besides asking for advice (partners' frames only, with their key): interview
// events it sees itself — a question answered, the interview left at a question — sent in small batches (and with
// keepalive when the page goes away), and the "Didn't find what you need? Ask us" box when the key offers it.
import { element } from './dom.ts'

type EmbedEvent = { event: 'question_answered' | 'abandoned'; question: string }

function post(adviceSetId: number, key: string, path: string, body: unknown, keepalive = false): Promise<Response> {
  return fetch(`/api/advice/${adviceSetId}/${path}`, {
    method: 'POST', credentials: 'omit', keepalive,
    headers: { 'authorization': `Bearer ${key}`, 'content-type': 'application/json', 'accept': 'application/json' },
    body: JSON.stringify(body),
  })
}

export class EventReporter {
  private queued: EmbedEvent[] = []

  constructor(private readonly adviceSetId: number, private readonly key: string, currentQuestion: () => string | null) {
    addEventListener('pagehide', () => {
      const question = currentQuestion()
      if (question) this.queued.push({ event: 'abandoned', question })
      this.flush(true)
    })
  }

  answered(question: string): void {
    this.queued.push({ event: 'question_answered', question })
    if (this.queued.length >= 10) this.flush(false)
  }

  private flush(keepalive: boolean): void {
    if (this.queued.length === 0) return
    const events = this.queued.splice(0, 50)
    // Analytics never disturb the interview: a failed report is dropped.
    post(this.adviceSetId, this.key, 'events', { events }, keepalive).catch(() => undefined)
  }
}

export function askUsBox(adviceSetId: number, key: string): HTMLElement {
  const text = element('textarea', { id: 'ask-us-text', rows: '3', maxlength: '2000', required: '' })
  const status = element('p', { 'class': 'ask-us-status', 'role': 'status', 'aria-live': 'polite' })
  const send = element('button', { type: 'submit', class: 'button' }, ['Send'])
  const form = element('form', { class: 'ask-us-form' }, [element('label', { for: 'ask-us-text' }, ['Your question']), text, send, status])
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    send.disabled = true
    void post(adviceSetId, key, 'ai-user-request', { text: text.value }).then(async (response) => {
      const body = await response.json().catch(() => ({})) as { error?: { message?: string } }
      if (response.ok) { text.value = ''; status.textContent = 'Thank you. Your question was sent.' }
      else status.textContent = body.error?.message ?? 'Your question could not be sent. Please try again.'
    }, () => { status.textContent = 'Your question could not be sent. Please try again.' }).finally(() => { send.disabled = false })
  })
  return element('details', { class: 'ask-us' }, [element('summary', {}, ['Didn’t find what you need? Ask us']), form])
}
