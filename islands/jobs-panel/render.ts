// One job's row in the panel: the same markup as the server's fallback (views/partials/_jobs-panel.eta).
import type { PanelJob } from './props.ts'

const STATE_LABELS: Record<PanelJob['state'], string> = {
  queued: 'Waiting', running: 'Running', completed: 'Done', failed: 'Failed', cancelled: 'Cancelled',
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text = ''): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  element.className = className
  element.textContent = text
  return element
}

export function jobRow(job: PanelJob, onCancel: (id: number) => void): HTMLLIElement {
  const row = el('li', `job job--${job.state}`)
  row.dataset.jobId = String(job.id)
  row.dataset.jobState = job.state
  const head = el('div', 'job__head')
  head.append(el('strong', 'job__title', job.title), el('span', 'job__state', STATE_LABELS[job.state]))
  const bar = el('progress', 'job__bar')
  bar.max = 100
  bar.value = job.progress
  bar.setAttribute('aria-label', `${job.title}: ${job.progress}%`)
  const line = el('div', 'job__line')
  line.append(el('span', 'job__percent', `${job.progress}%`), el('span', 'job__text', job.error ?? job.progressText))
  row.append(head, bar, line)
  if (job.downloadUrl && job.state === 'completed') {
    const link = el('a', 'button job__download', 'Download')
    link.href = job.downloadUrl
    row.append(link)
  }
  if (job.resultUrl && job.state === 'completed') {
    const link = el('a', 'button job__result', 'Show the result')
    link.href = job.resultUrl
    row.append(link)
  }
  if (job.cancellable) {
    const cancel = el('button', 'link-button job__cancel', 'Cancel')
    cancel.type = 'button'
    cancel.addEventListener('click', () => { cancel.disabled = true; onCancel(job.id) })
    row.append(cancel)
  }
  return row
}
