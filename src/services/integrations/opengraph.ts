// GET /api/opengraph (SPEC §7 opengraph): a link's preview (title, description, image, site name) read from the
// page's OpenGraph and meta tags. The page is fetched through src/net (every SSRF refusal, 1 MB, 5 s) and only read
// as markup by htmlparser2's tokenizer: nothing in it is executed, fetched or rendered. Reading stops at </head>.
import { Parser } from 'htmlparser2'
import { OutboundError } from '../../net/index.ts'
import type { Deps } from '../context.ts'
import { UpstreamError, ValidationError } from '../errors.ts'

export interface LinkPreview {
  url: string
  title: string | null
  description: string | null
  image: string | null
  siteName: string | null
}

const TIMEOUT_MS = 5000
const MAX_TEXT = 500

/** The preview of the page at `raw` (an http(s) URL). Bad or refused URLs: 400 naming `url`; a page that cannot be read: 502. */
export async function linkPreview(deps: Deps, raw: string): Promise<LinkPreview> {
  const text = raw.trim()
  if (text === '') throw new ValidationError('url', 'url: give the address of a web page.')
  let response
  try {
    response = await deps.outbound.send({ url: text, headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1', 'user-agent': 'AdviceStudio-LinkPreview/1.0' }, timeoutMs: TIMEOUT_MS })
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error
    if (error.code === 'BAD_URL' || error.code === 'REFUSED_ADDRESS') throw new ValidationError('url', `url: ${error.message}`)
    throw new UpstreamError(`The page could not be read: ${error.message}`, error.code)
  }
  if (response.status >= 400) throw new UpstreamError(`The page answered with status ${response.status}.`, 'STATUS')
  const type = response.headers['content-type'] ?? ''
  if (type !== '' && !/html/i.test(type)) {
    return { url: response.url, title: null, description: null, image: null, siteName: null }
  }
  return previewOfHtml(response.body.toString('utf8'), response.url)
}

/** The preview members from a page's markup; `pageUrl` resolves relative image and canonical URLs. */
export function previewOfHtml(html: string, pageUrl: string): LinkPreview {
  const meta = new Map<string, string>()
  let title = ''
  let inTitle = false
  let done = false
  const parser = new Parser({
    onopentag(name, attributes) {
      if (name === 'title') inTitle = true
      if (name !== 'meta') return
      const key = (attributes.property ?? attributes.name ?? '').trim().toLowerCase()
      const content = attributes.content
      // The first of a repeated tag wins, as OpenGraph readers do (og:image may be given several times).
      if (key && content !== undefined && !meta.has(key)) meta.set(key, content)
    },
    ontext(text) {
      if (inTitle) title += text
    },
    onclosetag(name) {
      if (name === 'title') inTitle = false
      if (name === 'head') { done = true; parser.pause() }
    },
  }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true })
  parser.write(html)
  if (!done) parser.end()
  const pick = (...keys: string[]) => {
    for (const key of keys) {
      const value = clean(meta.get(key))
      if (value) return value
    }
    return null
  }
  return {
    url: absoluteHttp(pick('og:url'), pageUrl) ?? pageUrl,
    title: pick('og:title', 'twitter:title') ?? clean(title),
    description: pick('og:description', 'twitter:description', 'description'),
    image: absoluteHttp(pick('og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image'), pageUrl),
    siteName: pick('og:site_name', 'application-name'),
  }
}

function clean(text: string | undefined): string | null {
  if (text === undefined) return null
  const value = text.replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT)
  return value === '' ? null : value
}

/** Only http(s) URLs are passed on (never javascript: or data:), made absolute against the page. */
function absoluteHttp(value: string | null, base: string): string | null {
  if (value === null) return null
  try {
    const url = new URL(value, base)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null
  } catch {
    return null
  }
}
