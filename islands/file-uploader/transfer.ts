// One upload with progress (shared/upload.ts), and the calls that remove a file.
import { callApi } from '../shared/api.ts'
import { sendMultipart } from '../shared/upload.ts'
import { isRecord } from '../shared/guards.ts'
import { parseUploadedFile, type UploadedFile, type UploadTarget } from './props.ts'

export type UploadResult = { ok: true; file: UploadedFile } | { ok: false; message: string }

export function uploadFile(url: string, file: File, target: UploadTarget | null, onProgress: (loaded: number, total: number) => void): { done: Promise<UploadResult>; abort(): void } {
  const form = new FormData()
  if (target) {
    form.append('targetType', target.targetType)
    form.append('targetId', String(target.targetId))
  }
  // Last, so the fields arrive before the bytes.
  form.append('file', file, file.name)
  const sent = sendMultipart(url, form, onProgress)
  const done = sent.done.then((answer): UploadResult => {
    if (answer.status !== 201) return { ok: false, message: answer.message }
    try {
      return { ok: true, file: parseUploadedFile(isRecord(answer.body) ? answer.body.data : null) }
    } catch {
      return { ok: false, message: 'The server answered with something that is not a file.' }
    }
  })
  return { done, abort: sent.abort }
}

/** Takes a file away: unlinked from the target (it stays in the library), or deleted when there is no target. */
export async function removeFile(file: UploadedFile, target: UploadTarget | null, mode: 'unlink' | 'delete'): Promise<void> {
  if (mode === 'unlink' && target) await callApi(`/api/supplements/${file.id}/unlink`, { method: 'POST', json: target })
  else await callApi(`/api/supplements/${file.id}`, { method: 'DELETE' })
}
