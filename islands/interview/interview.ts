// The interview: one question at a time, the answers so far (each can be changed), and the advice as it becomes
// available. Every answer asks the server again with all answers; the server decides what to ask next.
import { AdviceRequestError, fetchInterviewState } from './advice-client.ts'
import { adviceView } from './advice-view.ts'
import { element, plainText } from './dom.ts'
import { askUsBox, EventReporter } from './feedback.ts'
import type { InterviewProps } from '../../src/services/delivery/embed.ts'
import { questionForm } from './question-form.ts'
import type { InterviewState } from './state.ts'

export class Interview {
  private readonly answers = new Map<string, string>()
  /**
   * A question asked again with the answer it had: chosen by the reader (who may keep that answer) or refused by
   * the server (the refusal shown as the question's error).
   */
  private again: { variable: string; previous: string; keepable: boolean; error?: string } | null = null
  private readonly status = element('p', { 'class': 'visually-hidden', 'role': 'status', 'aria-live': 'polite' })
  private readonly stage = element('div', { class: 'interview-stage' })
  private readonly results = element('div')
  private loads = 0
  /** The question on screen (null when all are answered), for the "abandoned at" event. */
  private current: string | null = null
  private readonly reporter: EventReporter | null

  constructor(private readonly root: HTMLElement, private readonly props: InterviewProps) {
    root.replaceChildren(this.stage, this.results, this.status)
    const { source } = props
    this.reporter = source.kind === 'key' ? new EventReporter(props.adviceSetId, source.key, () => this.current) : null
    if (source.kind === 'key' && props.askUs) root.append(askUsBox(props.adviceSetId, source.key))
    root.addEventListener('click', (event) => {
      const trigger = (event.target as Element).closest<HTMLElement>('[data-reask]')
      if (!trigger) return
      event.preventDefault()
      this.reask(trigger.dataset.reask!)
    })
  }

  /** Resolves once the first step is on screen (or its failure is). */
  start(): Promise<void> {
    return this.load(false)
  }

  private reask(variable: string): void {
    const previous = this.answers.get(variable)
    if (previous === undefined) return
    this.again = { variable, previous, keepable: true }
    this.answers.delete(variable)
    void this.load(true)
  }

  private async load(moveFocus: boolean): Promise<void> {
    const load = ++this.loads
    this.root.setAttribute('aria-busy', 'true')
    try {
      const state = await fetchInterviewState(this.props.adviceSetId, this.props.source, this.answers)
      if (load === this.loads) this.render(state, moveFocus)
    } catch (error) {
      if (load !== this.loads) return
      const refused = error instanceof AdviceRequestError && error.field !== undefined ? error.field : undefined
      const previous = refused === undefined ? undefined : this.answers.get(refused)
      if (refused !== undefined && previous !== undefined) {
        this.again = { variable: refused, previous, keepable: false, error: (error as Error).message }
        this.answers.delete(refused)
        return this.load(moveFocus)
      }
      if (!(error instanceof AdviceRequestError)) console.error('interview: the step could not be shown', error)
      this.renderFailure(error instanceof AdviceRequestError ? error.message : 'Something went wrong. Please try again.')
    } finally {
      if (load === this.loads) this.root.removeAttribute('aria-busy')
    }
  }

  private render(state: InterviewState, moveFocus: boolean): void {
    const again = this.again !== null && state.focus?.variable === this.again.variable ? this.again : null
    const focus = again?.error && state.focus ? { ...state.focus, error: again.error } : state.focus
    this.current = focus?.variable ?? null
    this.reporter?.step(this.current)
    if (focus) {
      const form = questionForm(focus, {
        previous: again?.previous ?? this.answers.get(focus.variable),
        onAnswer: (raw) => this.answer(focus.variable, raw),
        ...(again?.keepable ? { onKeep: () => this.answer(again.variable, again.previous) } : {}),
      })
      this.stage.replaceChildren(form.element)
      this.results.replaceChildren(adviceView(state))
      this.status.textContent = `Question: ${plainText(focus.html) || focus.variable}`
      if (moveFocus) form.focus()
    } else {
      const restart = element('button', { type: 'button', class: 'button' }, ['Start again'])
      restart.addEventListener('click', () => {
        this.answers.clear()
        this.reporter?.restarted()
        void this.load(true)
      })
      const done = element('p', { class: 'interview-done', tabindex: '-1' }, ['All questions are answered.'])
      this.stage.replaceChildren(element('div', { class: 'interview-complete' }, [done, restart]))
      this.results.replaceChildren(adviceView(state))
      this.status.textContent = state.groups.length > 0 ? 'All questions are answered. Your advice is below.' : 'All questions are answered.'
      if (moveFocus) done.focus()
    }
  }

  private answer(variable: string, raw: string): void {
    this.reporter?.answered(variable)
    this.answers.set(variable, raw)
    this.again = null
    void this.load(true)
  }

  private renderFailure(message: string): void {
    const retry = element('button', { type: 'button', class: 'button' }, ['Try again'])
    retry.addEventListener('click', () => void this.load(true))
    this.stage.replaceChildren(element('div', { class: 'interview-failure', role: 'alert' }, [element('p', {}, [message]), retry]))
  }
}
