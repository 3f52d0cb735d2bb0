// One question as a form, by input type (SPEC §3 "Question input types": each with its placeholder and description).
// Answers are checked here with the engine's own coercion, so a typo is caught with the message the server would give.
import { coerceInput } from '../../src/engine/types/index.ts'
import { INPUT_TYPES } from '../../src/engine/types/data-types.ts'
import { element, htmlBlock } from './dom.ts'
import type { Question } from './state.ts'

export interface QuestionForm {
  element: HTMLFormElement
  /** Moves focus to the answer control (after an answer, so keyboard and screen-reader users follow the interview). */
  focus(): void
}

export interface QuestionFormOptions {
  /** The answer given before, when the question is asked again. */
  previous?: string
  onAnswer(raw: string): void
  /** Offered when the question is asked again: go back to the answer given before. */
  onKeep?: () => void
}

const BLANK = 'Please answer this question.'
let formCount = 0

type Choice = { value: string; label: string }

function choicesOf(question: Question): Choice[] {
  if (question.dataType === 'boolean') return [{ value: 'true', label: 'Yes' }, { value: 'false', label: 'No' }]
  return question.options.map((option) => ({ value: option, label: option }))
}

function previousList(previous: string | undefined): string[] {
  if (previous === undefined || !previous.startsWith('[')) return []
  try {
    const list: unknown = JSON.parse(previous)
    return Array.isArray(list) ? list.map(String) : []
  } catch {
    return []
  }
}

/** The control and how to read it back as the raw answer the API takes. */
function control(question: Question, ids: { text: string; described: string; input: string }, previous: string | undefined) {
  const info = INPUT_TYPES[question.dataType]
  const choices = choicesOf(question)
  const many = question.dataType === 'array' && choices.length > 0
  if (question.dataType === 'boolean' || question.dataType === 'radio' || many) {
    const checked = many ? previousList(previous) : [previous ?? '']
    const inputs = choices.map((choice, index) => element('input', {
      type: many ? 'checkbox' : 'radio', name: ids.input, id: `${ids.input}-${index}`, value: choice.value,
      ...(checked.includes(choice.value) ? { checked: '' } : {}),
    }))
    const group = element('fieldset', { 'class': 'question-choices', 'aria-labelledby': ids.text, 'aria-describedby': ids.described },
      choices.map((choice, index) => element('div', { class: 'question-choice' }, [inputs[index]!, element('label', { for: `${ids.input}-${index}` }, [choice.label])])))
    const read = () => {
      const values = inputs.filter((input) => input.checked).map((input) => input.value)
      return many ? (values.length > 0 ? JSON.stringify(values) : '') : values[0] ?? ''
    }
    return { node: group, read, first: () => inputs.find((input) => input.checked) ?? inputs[0], invalid: (on: boolean) => toggleInvalid(inputs, on) }
  }
  const common = { 'id': ids.input, 'aria-labelledby': ids.text, 'aria-describedby': ids.described }
  if (question.dataType === 'select') {
    const select = element('select', common, [element('option', { value: '' }, [info.placeholder]),
      ...choices.map((choice) => element('option', { value: choice.value }, [choice.label]))])
    select.value = previous ?? ''
    return { node: select, read: () => select.value, first: () => select, invalid: (on: boolean) => toggleInvalid([select], on) }
  }
  const input = element('input', {
    ...common, type: question.dataType === 'date' ? 'date' : 'text', placeholder: info.placeholder, autocomplete: 'off',
    ...(question.dataType === 'number' || question.dataType === 'percent' ? { inputmode: 'decimal' } : {}),
  })
  input.value = previous ?? ''
  const node = question.dataType === 'percent'
    ? element('span', { class: 'question-percent' }, [input, element('span', { 'aria-hidden': 'true' }, ['%'])])
    : input
  return { node, read: () => input.value, first: () => input, invalid: (on: boolean) => toggleInvalid([input], on) }
}

function toggleInvalid(controls: HTMLElement[], on: boolean): void {
  for (const node of controls) {
    if (on) node.setAttribute('aria-invalid', 'true')
    else node.removeAttribute('aria-invalid')
  }
}

export function questionForm(question: Question, opts: QuestionFormOptions): QuestionForm {
  formCount += 1
  const base = `question-${formCount}`
  const ids = { text: `${base}-text`, hint: `${base}-hint`, error: `${base}-error`, input: `${base}-answer`, described: `${base}-hint ${base}-error` }
  const info = INPUT_TYPES[question.dataType]
  const answer = control(question, ids, opts.previous)
  const error = element('p', { id: ids.error, class: 'question-error', role: 'alert' })
  const showError = (message: string) => {
    error.textContent = message
    answer.invalid(message !== '')
  }
  const actions = element('div', { class: 'question-actions' }, [element('button', { type: 'submit', class: 'button primary' }, ['Next'])])
  if (opts.onKeep) {
    const keep = element('button', { type: 'button', class: 'button' }, ['Keep my answer'])
    keep.addEventListener('click', opts.onKeep)
    actions.append(keep)
  }
  const form = element('form', { 'class': 'question', 'novalidate': '', 'data-variable': question.variable, 'data-type': question.dataType }, [
    htmlBlock('question-text', question.html || question.variable, { id: ids.text }),
    answer.node,
    element('p', { id: ids.hint, class: 'question-hint' }, [info.description]),
    error,
    actions,
  ])
  if (question.error) showError(question.error)
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const raw = answer.read()
    const checked = raw.trim() === '' ? { ok: false as const, message: BLANK } : coerceInput(question.dataType, raw, { options: question.options })
    if (!checked.ok) {
      showError(checked.message)
      answer.first()?.focus()
      return
    }
    showError('')
    opts.onAnswer(raw)
  })
  return { element: form, focus: () => answer.first()?.focus() }
}
