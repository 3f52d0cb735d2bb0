// What the interview tells the studio besides asking for advice (partners' frames only, with their key): the events
// of each interview, counted here per interview — started once, each question shown and answered, the advice reached
// at most once, abandoned at the question on screen when the page goes away unfinished — so no interview completes
// more often than it starts (the server counts the embed's calls as steps of these, not as a partner's runs). They
// are sent in small batches (with keepalive when the page goes away). Also the "Didn't find what you need? Ask us"
// box when the key offers it.
import { element } from './dom.ts'

type EmbedEvent = { event: 'started' | 'advice_reached' } | { event: 'question_shown' | 'question_answered' | 'abandoned'; question: string }

function post(adviceSetId: number, key: string, path: string, body: unknown, keepalive = false): Promise<Response> {
  return fetch(`/api/advice/${adviceSetId}/${path}`, {
    method: 'POST', credentials: 'omit', keepalive,
    headers: { 'authorization': `Bearer ${key}`, 'content-type': 'application/json', 'accept': 'application/json' },
    body: JSON.stringify(body),
  })
}

export class EventReporter {
  private queued: EmbedEvent[] = []
  /** The interview on screen, once its first step is: whether it has reached advice yet. */
  private interview: { completed: boolean } | null = null

  constructor(private readonly adviceSetId: number, private readonly key: string, currentQuestion: () => string | null) {
    addEventListener('pagehide', () => {
      const question = currentQuestion()
      if (question && this.interview && !this.interview.completed) this.queued.push({ event: 'abandoned', question })
      this.flush(true)
    })
  }

  /** A step is on screen: `question` asked, or none left (the advice). The first step of an interview starts it. */
  step(question: string | null): void {
    if (!this.interview) {
      this.interview = { completed: false }
      this.report({ event: 'started' })
    }
    if (question !== null) this.report({ event: 'question_shown', question })
    else if (!this.interview.completed) {
      this.interview.completed = true
      this.report({ event: 'advice_reached' })
    }
  }

  answered(question: string): void {
    this.report({ event: 'question_answered', question })
  }

  /** "Start again": the next step starts another interview. */
  restarted(): void {
    this.interview = null
  }

  private report(event: EmbedEvent): void {
    this.queued.push(event)
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
