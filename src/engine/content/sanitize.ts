import sanitizeHtml from 'sanitize-html'
import { IMAGE_SCHEMES, LINK_SCHEMES } from './urls.ts'

// Exactly what our markdown renderer can produce, nothing more. Markdown-it already runs with HTML off, so this is
// the second wall: whatever slips past the first still meets an allow-list of tags, attributes and URL schemes.
const MARKDOWN_TAGS = [
  'p', 'br', 'strong', 'em', 's', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
]
const TABLE_ALIGN = { 'text-align': [/^(left|right|center)$/] }

function options(links: boolean): sanitizeHtml.IOptions {
  return {
    allowedTags: links ? [...MARKDOWN_TAGS, 'a'] : MARKDOWN_TAGS,
    allowedAttributes: {
      a: ['href', 'title'],
      img: ['src', 'alt', 'title'],
      ol: ['start'],
      th: ['style'],
      td: ['style'],
      code: ['class'],
    },
    allowedClasses: { code: ['language-*'] },
    allowedStyles: { th: TABLE_ALIGN, td: TABLE_ALIGN },
    allowedSchemes: [...LINK_SCHEMES],
    allowedSchemesByTag: { img: [...IMAGE_SCHEMES] },
    allowProtocolRelative: true,
    // A dropped tag keeps its text: without links, [label](url) reads as "label".
    disallowedTagsMode: 'discard',
  }
}

const WITH_LINKS = options(true)
const WITHOUT_LINKS = options(false)

export function sanitizeRendered(html: string, links: boolean): string {
  return sanitizeHtml(html, links ? WITH_LINKS : WITHOUT_LINKS)
}
