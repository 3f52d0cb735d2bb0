// The answers given so far and the advice as it becomes available. Variable chips in the advice (the html content
// type's backlinks) and the answers list both re-ask a question when clicked.
import { element, htmlBlock, plainText } from './dom.ts'
import type { AdviceView, Answered, InterviewState } from './state.ts'

const GROUP_HEADINGS = { advice: 'Advice', assumptions: 'Assumptions', examples: 'Examples' } as const

function answersList(answered: readonly Answered[]): HTMLElement {
  return element('section', { 'class': 'interview-answers', 'aria-labelledby': 'interview-answers-heading' }, [
    element('h2', { id: 'interview-answers-heading' }, ['Your answers']),
    element('ul', {}, answered.map((answer) => {
      const change = element('button', {
        'type': 'button', 'class': 'answer-change', 'data-reask': answer.variable,
        'aria-label': `Change your answer to “${plainText(answer.html) || answer.variable}”: ${answer.valueFormatted}`,
      }, [answer.valueFormatted || '—'])
      return element('li', {}, [htmlBlock('answer-question', answer.html || answer.variable), change])
    })),
  ])
}

/** Chips of answered variables become links back to their question (the server links them when it knows how). */
function linkChips(container: HTMLElement, answered: readonly Answered[]): void {
  const byVariable = new Map(answered.map((answer) => [answer.variable, answer]))
  for (const chip of container.querySelectorAll<HTMLElement>('.var-chip[data-var]')) {
    const answer = byVariable.get(chip.dataset.var!)
    if (!answer) continue
    // A chip inside the author's own link stays part of that link.
    if (chip.closest('a:not(.var-link)')) continue
    let link = chip.closest('a')
    if (!link) {
      link = element('a', { class: 'var-link' })
      chip.replaceWith(link)
      link.append(chip)
    }
    link.setAttribute('href', `#ask-${encodeURIComponent(answer.variable)}`)
    link.dataset.reask = answer.variable
    link.setAttribute('aria-label', `${chip.textContent ?? ''}: change your answer to “${plainText(answer.html) || answer.variable}”`)
  }
}

function sourcesList(sources: AdviceView['sources']): HTMLElement[] {
  if (sources.length === 0) return []
  const links = sources.flatMap((source, index) => [
    ...(index > 0 ? [', '] : []),
    element('a', { href: source.uri, target: '_blank', rel: 'noopener noreferrer' }, [source.name]),
  ])
  return [element('p', { class: 'advice-sources' }, [sources.length === 1 ? 'Source: ' : 'Sources: ', ...links])]
}

export function adviceView(state: InterviewState): HTMLElement {
  const view = element('div', { class: 'interview-results' })
  if (state.answered.length > 0) view.append(answersList(state.answered))
  for (const group of state.groups) {
    const headingId = `interview-${group.name}-heading`
    view.append(element('section', { 'class': `interview-group interview-${group.name}`, 'aria-labelledby': headingId }, [
      element('h2', { id: headingId, tabindex: '-1' }, [GROUP_HEADINGS[group.name]]),
      element('ul', { class: 'advice-items' }, group.items.map((item) => element('li', { 'class': 'advice-item', 'data-node-id': item.nodeId }, [
        ...(item.headline ? [htmlBlock('advice-headline', item.headline)] : []),
        ...(item.text ? [htmlBlock('advice-text', item.text)] : []),
        ...sourcesList(item.sources),
      ]))),
    ]))
  }
  linkChips(view, state.answered)
  return view
}
