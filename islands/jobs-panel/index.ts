// The jobs panel (plain DOM, mounted by the loader so any page can have it): the page's jobs with progress bars,
// polled once a second while one is queued or running, with Cancel and a finished export's Download.
// Other code adds a job it started with `document.dispatchEvent(new CustomEvent('jobs:track', { detail: job }))`
// (job as /api/job returns it); when a job ends the panel dispatches `jobs:finished` on document with that job.
import { callApi } from '../shared/api.ts'
import { isRecord } from '../shared/guards.ts'
import { notify } from '../shared/notify.ts'
import { readIslandProps } from '../shared/read-props.ts'
import { ACTIVE_STATES, parseJobsPanelProps, toPanelJob, type PanelJob } from './props.ts'
import { jobRow } from './render.ts'

export const TRACK_EVENT = 'jobs:track'
export const FINISHED_EVENT = 'jobs:finished'
const POLL_MS = 1000

export function mountJobsPanel(element: HTMLElement): void {
  const props = parseJobsPanelProps(readIslandProps(element, 'jobs-panel'))
  const jobs = new Map<number, PanelJob>(props.jobs.map((job) => [job.id, job]))
  const list = document.createElement('ol')
  list.className = 'jobs-panel__list'
  let timer: ReturnType<typeof setTimeout> | undefined

  const cancel = async (id: number) => {
    try {
      update(toPanelJob(dataOf(await callApi(`/api/job/${id}/cancel`, { method: 'POST' }))))
      render()
    } catch (error) {
      notify({ type: 'error', text: error instanceof Error ? error.message : String(error) })
    }
    schedule()
  }

  const render = () => {
    list.replaceChildren(...[...jobs.values()].sort((a, b) => b.id - a.id).map((job) => jobRow(job, (id) => void cancel(id))))
    element.hidden = jobs.size === 0
  }

  const update = (job: PanelJob) => {
    const before = jobs.get(job.id)
    jobs.set(job.id, job)
    if (before && ACTIVE_STATES.has(before.state) && !ACTIVE_STATES.has(job.state)) {
      document.dispatchEvent(new CustomEvent(FINISHED_EVENT, { detail: job }))
    }
  }

  const poll = async () => {
    timer = undefined
    try {
      const active = [...jobs.values()].filter((job) => ACTIVE_STATES.has(job.state))
      for (const job of active) update(toPanelJob(dataOf(await callApi(`/api/job/${job.id}`))))
      render()
    } catch (error) {
      console.warn('jobs panel: could not read job progress', error)
    }
    schedule()
  }

  function schedule() {
    if (timer === undefined && [...jobs.values()].some((job) => ACTIVE_STATES.has(job.state))) timer = setTimeout(() => void poll(), POLL_MS)
  }

  document.addEventListener(TRACK_EVENT, (event) => {
    const job = toPanelJob((event as CustomEvent<unknown>).detail)
    jobs.set(job.id, job)
    render()
    schedule()
  })

  element.querySelector('.jobs-panel__list')?.remove()
  element.append(list)
  render()
  schedule()
  element.dataset.islandState = 'mounted'
}

function dataOf(body: unknown): unknown {
  return isRecord(body) ? body.data : undefined
}
