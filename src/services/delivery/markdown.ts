// /api/advice/markdown/preview: advice markdown as the engine renders it (markdown-it with HTML off, then the
// sanitizer's allow-list), so the preview cannot differ from what partners will get. No run supplies values, so
// every {{Variable}} and [[Formula]] shows as a missing-value chip with its name, and is listed.
import { renderContent, type ContentType, type TemplateTag } from '../../engine/index.ts'

export const MARKDOWN_PREVIEW_LIMIT = 100_000

export function markdownPreview(markdown: string, opts: { links: boolean }): { html: string; tags: TemplateTag[] } {
  const type: ContentType = opts.links ? 'html' : 'htmlnolinks'
  const { body, missing } = renderContent(markdown, type, () => undefined)
  return { html: body as string, tags: missing }
}
