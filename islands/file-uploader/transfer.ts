// One upload with progress (XMLHttpRequest: fetch cannot report upload progress), and the calls that remove a file.
import { callApi } from '../shared/api.ts'
import { isRecord } from '../shared/guards.ts'
import { parseUploadedFile, type UploadedFile, type UploadTarget } from './props.ts'

export type UploadResult = { ok: true; file: UploadedFile } | { ok: false; message: string }

function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? ''
}

function errorMessage(xhr: XMLHttpRequest): string {
  try {
    const body: unknown = JSON.parse(xhr.responseText)
    if (isRecord(body) && isRecord(body.error) && typeof body.error.message === 'string') return body.error.message
  } catch {
    // Not JSON: a proxy's page, or nothing at all when the connection broke.
  }
  return `${xhr.status} ${xhr.statusText}`.trim()
}

export function uploadFile(url: string, file: File, target: UploadTarget | null, onProgress: (loaded: number, total: number) => void): { done: Promise<UploadResult>; abort(): void } {
  const xhr = new XMLHttpRequest()
  const done = new Promise<UploadResult>((resolve) => {
    xhr.upload.addEventListener('progress', (event) => { if (event.lengthComputable) onProgress(event.loaded, event.total) })
    xhr.upload.addEventListener('load', () => onProgress(1, 1))
    xhr.addEventListener('load', () => {
      if (xhr.status !== 201) return resolve({ ok: false, message: errorMessage(xhr) })
      try {
        const body: unknown = JSON.parse(xhr.responseText)
        resolve({ ok: true, file: parseUploadedFile(isRecord(body) ? body.data : null) })
      } catch {
        resolve({ ok: false, message: 'The server answered with something that is not a file.' })
      }
    })
    xhr.addEventListener('error', () => resolve({ ok: false, message: 'The connection broke.' }))
    xhr.addEventListener('abort', () => resolve({ ok: false, message: 'The upload was cancelled.' }))
  })
  const form = new FormData()
  if (target) {
    form.append('targetType', target.targetType)
    form.append('targetId', String(target.targetId))
  }
  // Last, so the fields arrive before the bytes.
  form.append('file', file, file.name)
  xhr.open('POST', url)
  xhr.setRequestHeader('accept', 'application/json')
  xhr.setRequestHeader('x-csrf-token', csrfToken())
  xhr.send(form)
  return { done, abort: () => xhr.abort() }
}

/** Takes a file away: unlinked from the target (it stays in the library), or deleted when there is no target. */
export async function removeFile(file: UploadedFile, target: UploadTarget | null, mode: 'unlink' | 'delete'): Promise<void> {
  if (mode === 'unlink' && target) await callApi(`/api/supplements/${file.id}/unlink`, { method: 'POST', json: target })
  else await callApi(`/api/supplements/${file.id}`, { method: 'DELETE' })
}
