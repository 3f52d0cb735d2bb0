// Multipart uploads in API tests: a body built by the platform's own FormData, sent through an Agent with the CSRF
// header as the uploader island sends it.
import type { LightMyRequestResponse } from 'fastify'
import type { Agent } from './agent.ts'

export interface UploadFile { filename: string; data: Buffer; type?: string }

export async function multipartBody(file: UploadFile | null, fields: Record<string, string> = {}): Promise<{ payload: Buffer; contentType: string }> {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  if (file) form.append('file', new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }), file.filename)
  const request = new Request('http://localhost/', { method: 'POST', body: form })
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! }
}

/** POST /api/supplements/upload (or `url`) as the signed-in agent. */
export async function upload(agent: Agent, file: UploadFile | null, fields: Record<string, string> = {}, url = '/api/supplements/upload'): Promise<LightMyRequestResponse> {
  if (!agent.csrfToken) await agent.get('/')
  const { payload, contentType } = await multipartBody(file, fields)
  return agent.request({ method: 'POST', url, payload, headers: { 'accept': 'application/json', 'content-type': contentType, 'x-csrf-token': agent.csrfToken } })
}

/** A small PNG made by sharp, `width` × `height`. */
export async function pngOf(width: number, height: number): Promise<Buffer> {
  const { default: sharp } = await import('sharp')
  return sharp({ create: { width, height, channels: 3, background: '#3366cc' } }).png().toBuffer()
}

export const HTML_PAGE = Buffer.from('<!doctype html><html><head><title>Chart</title></head><body><script>document.title = "ran"</script><p>Chart</p></body></html>')
