import MarkdownIt from 'markdown-it'

// html off: raw HTML an author types shows as text, it never reaches the page as markup. linkify and typographer
// off: nothing rewrites the text around the placeholders that stand for {{Var}} / [[Formula]] while parsing.
// markdown-it's own link check already refuses javascript:, vbscript:, file: and non-image data: URLs.
export const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false })
