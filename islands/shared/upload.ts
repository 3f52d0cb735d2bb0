// A multipart upload with progress (XMLHttpRequest: fetch cannot report upload progress), with the session's CSRF
// header. Answers with the status and the parsed JSON body (null when the body was not JSON: a proxy's page, or
// nothing when the connection broke).
import { isRecord } from './guards.ts'

export interface UploadAnswer { status: number; body: unknown; message: string }

function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? ''
}

/** The server's message for a failed answer (`{ error: { message } }`), or the status line. */
function messageOf(status: number, statusText: string, body: unknown): string {
  if (isRecord(body) && isRecord(body.error) && typeof body.error.message === 'string') return body.error.message
  return `${status} ${statusText}`.trim()
}

export function sendMultipart(url: string, form: FormData, onProgress: (loaded: number, total: number) => void): { done: Promise<UploadAnswer>; abort(): void } {
  const xhr = new XMLHttpRequest()
  const done = new Promise<UploadAnswer>((resolve) => {
    xhr.upload.addEventListener('progress', (event) => { if (event.lengthComputable) onProgress(event.loaded, event.total) })
    xhr.upload.addEventListener('load', () => onProgress(1, 1))
    xhr.addEventListener('load', () => {
      let body: unknown = null
      try {
        body = JSON.parse(xhr.responseText)
      } catch {
        // Not JSON: the message falls back to the status line.
      }
      resolve({ status: xhr.status, body, message: messageOf(xhr.status, xhr.statusText, body) })
    })
    xhr.addEventListener('error', () => resolve({ status: 0, body: null, message: 'The connection broke.' }))
    xhr.addEventListener('abort', () => resolve({ status: 0, body: null, message: 'The upload was cancelled.' }))
  })
  xhr.open('POST', url)
  xhr.setRequestHeader('accept', 'application/json')
  xhr.setRequestHeader('x-csrf-token', csrfToken())
  xhr.send(form)
  return { done, abort: () => xhr.abort() }
}
