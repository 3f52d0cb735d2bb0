// The only way islands talk to the server: same-origin fetch with the session cookie and the CSRF header.
// Failed calls throw an ApiError carrying the server's message (`{ error: { status, name, message } }`) and, for bad
// input, the fields it refused (`field`, `fields`).
import { isRecord } from './guards.ts'

/** One input field the server refused, with what is wrong with it. */
export interface FieldProblem { field: string; message: string }

export class ApiError extends Error {
  override readonly name = 'ApiError'

  constructor(
    message: string, readonly status: number,
    /** The input field the server named (`error.field`), if any. */ readonly field?: string,
    /** Every field the server refused (`error.fields`), each with its own message; empty when it named none. */ readonly fields: FieldProblem[] = [],
  ) {
    super(message)
  }
}

function fieldProblems(raw: unknown): FieldProblem[] {
  if (!Array.isArray(raw)) return []
  return raw.filter(isRecord).flatMap((p) => (typeof p.field === 'string' && typeof p.message === 'string' ? [{ field: p.field, message: p.message }] : []))
}

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** Sent as a JSON body. */
  json?: unknown
  /** Sent as an url-encoded form body. */
  form?: Record<string, string>
  /** Aborts the call (a newer one has made its answer stale). */
  signal?: AbortSignal
}

function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? ''
}

function requestBody(request: ApiRequest): { body?: BodyInit, contentType?: string } {
  if (request.form) return { body: new URLSearchParams(request.form) }
  if (request.json !== undefined) return { body: JSON.stringify(request.json), contentType: 'application/json' }
  return {}
}

async function apiError(response: Response): Promise<ApiError> {
  const fallback = `${response.status} ${response.statusText}`.trim()
  try {
    const body: unknown = await response.json()
    if (isRecord(body) && isRecord(body.error) && typeof body.error.message === 'string') {
      const field = typeof body.error.field === 'string' ? body.error.field : undefined
      const fields = fieldProblems(body.error.fields)
      // An answer that names only `field` (an upload refused before its form was read) is about that one field.
      return new ApiError(body.error.message, response.status, field, fields.length || !field ? fields : [{ field, message: body.error.message }])
    }
  } catch {
    // Not JSON (a proxy error page, say): the status line is all there is to tell.
  }
  return new ApiError(fallback, response.status)
}

export async function callApi(url: string, request: ApiRequest = {}): Promise<unknown> {
  const { body, contentType } = requestBody(request)
  const headers: Record<string, string> = { 'accept': 'application/json', 'x-csrf-token': csrfToken() }
  if (contentType) headers['content-type'] = contentType
  const response = await fetch(url, {
    method: request.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
    credentials: 'same-origin',
    ...(request.signal ? { signal: request.signal } : {}),
  })
  if (!response.ok) throw await apiError(response)
  return response.status === 204 ? null : response.json()
}
