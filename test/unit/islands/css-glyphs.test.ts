// Generated content (`content: "…"`) in the stylesheets must be drawn by the fonts a reader has. Emoji are not: these
// machines (Debian Chromium with DejaVu and Liberation) and many readers' have no emoji font, so a badge such as the
// rule tree's comment count showed an empty box before its number.
import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

const CSS_DIR = path.join(import.meta.dirname, '../../../static/css')

t.test('no stylesheet draws an emoji as generated content', async (t) => {
  const found: string[] = []
  const files = readdirSync(CSS_DIR).filter((name) => name.endsWith('.css'))
  t.ok(files.includes('rule-tree.css'), 'the stylesheets are read')
  for (const file of files) {
    const css = readFileSync(path.join(CSS_DIR, file), 'utf8')
    for (const match of css.matchAll(/content:\s*(["'])(.*?)\1/g)) {
      if (/\p{Emoji_Presentation}/u.test(match[2]!)) found.push(`${file}: content: ${match[0].slice('content:'.length).trim()}`)
    }
  }
  t.same(found, [], 'every generated glyph is one the ordinary fonts have')
})
