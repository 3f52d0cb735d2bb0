// The jobs panel's props (JobView in src/services/operations/jobs.ts, the fields the panel shows).
import { isRecord } from '../shared/guards.ts'
import { InvalidPropsError } from '../shared/invalid-props.ts'

export interface PanelJob {
  id: number
  title: string
  state: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled'
  progress: number
  progressText: string
  error: string | null
  cancellable: boolean
  /** A finished export's download. */
  downloadUrl: string | null
  /** Where a finished job's result is shown (a replay: the page that started it). */
  resultUrl: string | null
}

export interface JobsPanelProps {
  subject: string
  jobs: PanelJob[]
}

export const ACTIVE_STATES: ReadonlySet<string> = new Set(['queued', 'running'])

/** One job as /api/job returns it (or as an event announces it). */
export function toPanelJob(raw: unknown): PanelJob {
  if (!isRecord(raw) || typeof raw.id !== 'number' || typeof raw.title !== 'string' || typeof raw.state !== 'string') {
    throw new InvalidPropsError('jobs-panel: a job needs id, title and state')
  }
  const result = isRecord(raw.result) ? raw.result : {}
  return {
    id: raw.id,
    title: raw.title,
    state: raw.state as PanelJob['state'],
    progress: typeof raw.progress === 'number' ? raw.progress : 0,
    progressText: typeof raw.progressText === 'string' ? raw.progressText : '',
    error: typeof raw.error === 'string' ? raw.error : null,
    cancellable: raw.cancellable === true,
    downloadUrl: typeof result.downloadUrl === 'string' ? result.downloadUrl : null,
    resultUrl: typeof result.resultUrl === 'string' && result.resultUrl.startsWith('/') ? result.resultUrl : null,
  }
}

export function parseJobsPanelProps(raw: unknown): JobsPanelProps {
  if (!isRecord(raw) || typeof raw.subject !== 'string' || !Array.isArray(raw.jobs)) {
    throw new InvalidPropsError('jobs-panel: expected { subject, jobs }')
  }
  return { subject: raw.subject, jobs: raw.jobs.map(toPanelJob) }
}
