// A page's OpenGraph title and image, to prefill a link supplement. The server fetches the page through its one
// SSRF-safe outbound module (GET /api/opengraph?url=, which answers { data: { title, image, … } }); when it fails
// (a page that cannot be reached, an address the outbound checks refuse) there is nothing to prefill and the author
// types the name.
import { callApi } from './api.ts'
import { isRecord, optionalString } from './guards.ts'

export interface OpenGraph { title?: string; image?: string }

export async function fetchOpenGraph(url: string): Promise<OpenGraph | null> {
  try {
    const answer = await callApi(`/api/opengraph?url=${encodeURIComponent(url)}`)
    const data = isRecord(answer) && isRecord(answer.data) ? answer.data : null
    if (!data) return null
    const title = optionalString(data.title)?.trim()
    const image = optionalString(data.image)?.trim()
    return { ...(title ? { title } : {}), ...(image && /^https?:\/\//.test(image) ? { image } : {}) }
  } catch {
    return null
  }
}
