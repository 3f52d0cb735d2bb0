import t from 'tap'
import fc from 'fast-check'
import MarkdownIt from 'markdown-it'
import { CONTENT_TYPES, renderContent, type AttributedString, type ResolvedTag } from '../../../src/engine/content/index.ts'
import { escapeMarkdown } from '../../../src/engine/content/escape.ts'
import { BoundedMemo } from '../../../src/engine/format/bounded-memo.ts'
import { isSafeUrl, LINK_SCHEMES } from '../../../src/engine/content/urls.ts'

type Values = Record<string, Partial<ResolvedTag> & { formatted: string }>

function resolver(values: Values, calls: string[] = []) {
  return (kind: 'variable' | 'formula', name: string): ResolvedTag | undefined => {
    calls.push(`${kind}:${name}`)
    const found = values[name]
    return found === undefined ? undefined : { value: found.value ?? found.formatted, ...found }
  }
}

const questionHref = (id: string): string => `/debug/node/${id}`

function html(text: string, values: Values, type: 'html' | 'htmlnolinks' = 'html'): string {
  return renderContent(text, type, resolver(values), { questionHref }).body as string
}

function plain(text: string, values: Values = {}): string {
  return renderContent(text, 'text', resolver(values)).body as string
}

function attributed(text: string, values: Values = {}): AttributedString {
  return renderContent(text, 'attrstring', resolver(values), { questionHref }).body as AttributedString
}

const advice = 'Hello **{{Name}}**, you owe [[Total]]. See [terms](https://example.com/terms).'
const adviceValues: Values = {
  Name: { formatted: 'Ann', questionNodeId: 'n7' },
  Total: { formatted: '$1,234.50' },
}

t.test('every content type renders the same advice', async (t) => {
  const render = (type: (typeof CONTENT_TYPES)[number]) => renderContent(advice, type, resolver(adviceValues), { questionHref })
  t.equal(
    render('html').body,
    '<p>Hello <strong><a class="var-link" href="/debug/node/n7"><span class="var-chip" data-kind="variable" data-var="Name">Ann</span></a></strong>, ' +
      'you owe <span class="var-chip" data-kind="formula" data-var="Total">$1,234.50</span>. See <a href="https://example.com/terms">terms</a>.</p>\n',
  )
  t.equal(
    render('htmlnolinks').body,
    '<p>Hello <strong><span class="var-chip" data-kind="variable" data-var="Name">Ann</span></strong>, ' +
      'you owe <span class="var-chip" data-kind="formula" data-var="Total">$1,234.50</span>. See terms.</p>\n',
  )
  t.equal(render('text').body, 'Hello Ann, you owe $1,234.50. See terms.')
  t.same(render('attrstring').body, {
    text: 'Hello Ann, you owe $1,234.50. See terms.',
    ranges: [
      { start: 6, length: 3, kind: 'bold' },
      { start: 6, length: 3, kind: 'variable', name: 'Name', href: '/debug/node/n7' },
      { start: 19, length: 9, kind: 'formula', name: 'Total' },
      { start: 34, length: 5, kind: 'link', href: 'https://example.com/terms' },
    ],
  })
  t.equal(render('markdown').body, 'Hello **Ann**, you owe $1,234.50. See [terms](https://example.com/terms).')
  t.equal(render('raw').body, 'Hello **Ann**, you owe $1,234.50. See [terms](https://example.com/terms).')
  for (const type of CONTENT_TYPES) t.same(render(type).missing, [], `${type}: nothing missing`)
})

t.test('missing tags are reported once each, in order, and shown per type', async (t) => {
  const text = 'A {{Gone}} and [[Lost]] and {{Gone}} and {{Here}}.'
  const values: Values = { Here: { formatted: 'ok' } }
  const expectedMissing = [
    { kind: 'variable', name: 'Gone' },
    { kind: 'formula', name: 'Lost' },
  ]
  for (const type of CONTENT_TYPES) t.same(renderContent(text, type, resolver(values)).missing, expectedMissing, type)
  t.equal(
    html(text, values),
    '<p>A <span class="var-chip var-missing" data-kind="variable" data-var="Gone">Gone</span> and ' +
      '<span class="var-chip var-missing" data-kind="formula" data-var="Lost">Lost</span> and ' +
      '<span class="var-chip var-missing" data-kind="variable" data-var="Gone">Gone</span> and ' +
      '<span class="var-chip" data-kind="variable" data-var="Here">ok</span>.</p>\n',
  )
  t.equal(plain(text, values), 'A  and  and  and ok.')
  t.same(attributed(text, values).ranges, [{ start: 17, length: 2, kind: 'variable', name: 'Here' }])
  t.equal(renderContent(text, 'markdown', resolver(values)).body, 'A  and  and  and ok.')
  t.equal(renderContent(text, 'raw', resolver(values)).body, 'A {{Gone}} and [[Lost]] and {{Gone}} and ok.')
})

t.test('each distinct tag is resolved once per render', async (t) => {
  const calls: string[] = []
  renderContent('{{A}} {{A}} [[A]] {{ A }} {{B}}', 'html', resolver({ A: { formatted: '1' } }, calls))
  t.same(calls, ['variable:A', 'formula:A', 'variable:B'])
})

t.test('a value that is empty but known is not missing', async (t) => {
  const result = renderContent('[{{X}}]', 'html', resolver({ X: { formatted: '', value: null } }))
  t.same(result.missing, [])
  t.equal(result.body, '<p>[<span class="var-chip" data-kind="variable" data-var="X"></span>]</p>\n')
})

t.test('backlinks', async (t) => {
  const values: Values = { A: { formatted: 'a', questionNodeId: 'q1' }, B: { formatted: 'b' } }
  t.match(html('{{A}}', values), '<a class="var-link" href="/debug/node/q1"><span', 'a value set by a question links to it')
  t.notMatch(html('{{B}}', values), 'var-link', 'a value no question set has no link')
  t.notMatch(renderContent('{{A}}', 'html', resolver(values)).body as string, 'var-link', 'no questionHref, no links')
  t.equal(
    html('[see {{A}}](https://x.test/)', values),
    '<p><a href="https://x.test/">see <span class="var-chip" data-kind="variable" data-var="A">a</span></a></p>\n',
    'a chip inside an author link is not linked again (no nested anchors)',
  )
  t.notMatch(html('{{A}}', values, 'htmlnolinks'), '<a', 'htmlnolinks has no anchors at all')
  const hostileHref = renderContent('{{A}}', 'html', resolver(values), { questionHref: () => 'javascript:alert(1)' }).body
  t.notMatch(hostileHref, 'javascript', 'an unsafe backlink is dropped')
  const quoted = renderContent('{{A}}', 'html', resolver(values), { questionHref: (id) => `/q?id=${id}&x="y"` }).body
  t.match(quoted, 'href="/q?id=q1&amp;x=&quot;y&quot;"', 'backlinks are attribute-escaped')
  const ranges = renderContent('{{A}}', 'attrstring', resolver(values), { questionHref: () => 'javascript:alert(1)' }).body as AttributedString
  t.same(ranges.ranges, [{ start: 0, length: 1, kind: 'variable', name: 'A' }], 'attrstring drops an unsafe backlink too')
})

t.test('markdown becomes plain text', async (t) => {
  const text = [
    '# Title {{A}}',
    '',
    'First *em* and __strong__ and `code {{A}}` and ~~gone~~.',
    'Second line.',
    '',
    '- one',
    '- two',
    '  1. inner',
    '',
    '3) third',
    '',
    '> quoted',
    '',
    '---',
    '',
    '![a picture of {{A}}](https://img.test/x.png)',
    '',
    '```js',
    'let x = {{A}}',
    '```',
    '',
    '| h1 | h2 |',
    '|----|---:|',
    '| c1 | c2 |',
    '',
    'Entities &amp; escapes \\*stay\\*. Raw <b>html</b> stays text.',
  ].join('\n')
  t.equal(
    plain(text, { A: { formatted: 'α' } }),
    [
      'Title α',
      '',
      'First em and strong and code α and gone.',
      'Second line.',
      '',
      '- one',
      '- two',
      '  1. inner',
      '',
      '3) third',
      '',
      'quoted',
      '',
      'a picture of α',
      '',
      'let x = α',
      '',
      'h1\th2',
      'c1\tc2',
      '',
      'Entities & escapes *stay*. Raw <b>html</b> stays text.',
    ].join('\n'),
  )
  t.equal(plain(''), '')
  t.equal(plain('   \n\n  '), '')
})

t.test('attributed string ranges point at the right text', async (t) => {
  const text = '**Bold {{Long}}** then *it [[F]] x* and [link {{S}}](https://l.test/{{S}}) {{Long}}'
  const values: Values = { Long: { formatted: 'a much longer value' }, F: { formatted: '' }, S: { formatted: 's/t' } }
  const body = attributed(text, values)
  t.equal(body.text, 'Bold a much longer value then it  x and link s/t a much longer value')
  const covered = body.ranges.map((range) => [range.kind, body.text.slice(range.start, range.start + range.length), range.href ?? null])
  t.same(covered, [
    ['bold', 'Bold a much longer value', null],
    ['variable', 'a much longer value', null],
    ['italic', 'it  x', null],
    ['link', 'link s/t', 'https://l.test/s%2Ft'],
    ['variable', 's/t', null],
    ['variable', 'a much longer value', null],
  ])
  const bare = attributed('**{{X}}**', { X: { formatted: '' } })
  t.same(bare, { text: '', ranges: [] }, 'ranges over nothing are left out')
})

t.test('attributed ranges always slice to the value they name', async () => {
  const pieces = fc.constantFrom('**', '*', '_', '[', '](https://x.test/)', '`', ' ', 'word', '\n', '\n\n', '- ', '# ', '{{A}}', '{{B}}', '[[C]]')
  const value = fc.string({ maxLength: 6 })
  fc.assert(
    fc.property(fc.array(pieces, { maxLength: 16 }), value, value, value, (parts, a, b, c) => {
      const values: Values = { A: { formatted: a }, B: { formatted: b }, C: { formatted: c } }
      const body = attributed(parts.join(''), values)
      return body.ranges.every((range) => {
        const slice = body.text.slice(range.start, range.start + range.length)
        const inBounds = range.start >= 0 && range.length > 0 && range.start + range.length <= body.text.length
        return inBounds && (range.name === undefined || slice === values[range.name]!.formatted)
      })
    }),
    { numRuns: 1500 },
  )
})

t.test('markup ranges match those of the same text written without tags', async () => {
  const pieces = fc.constantFrom('**', '*', '_', '[', '](https://x.test/)', '`', ' ', 'w', '\n', '\n\n', '- ', '# ', '{{A}}', '{{B}}')
  // Letters and digits only: beside markup they behave exactly like the placeholders the compile uses.
  const value = fc.stringMatching(/^[a-z0-9]{1,5}$/)
  fc.assert(
    fc.property(fc.array(pieces, { maxLength: 16 }), value, value, (parts, a, b) => {
      const template = parts.join('')
      const written = template.replaceAll('{{A}}', a).replaceAll('{{B}}', b)
      const markup = (body: AttributedString) => body.ranges.filter((range) => range.name === undefined)
      const fromTemplate = attributed(template, { A: { formatted: a }, B: { formatted: b } })
      const fromText = attributed(written)
      return fromTemplate.text === fromText.text && JSON.stringify(markup(fromTemplate)) === JSON.stringify(markup(fromText))
    }),
    { numRuns: 1500 },
  )
})

t.test('values in link destinations', async (t) => {
  const values: Values = {
    Url: { formatted: 'https://good.test/a b' },
    Bad: { formatted: 'javascript:alert(1)' },
    Part: { formatted: 'a b&c=d' },
    Img: { formatted: 'https://img.test/p.png' },
  }
  t.equal(html('[go]({{Url}})', values), '<p><a href="https://good.test/a b">go</a></p>\n', 'a whole-URL value is the link')
  t.equal(html('[go]({{Bad}})', values), '<p><a>go</a></p>\n', 'an unsafe whole-URL value loses its href')
  t.equal(html('[go](https://x.test/?q={{Part}})', values), '<p><a href="https://x.test/?q=a%20b%26c%3Dd">go</a></p>\n', 'a value inside a URL is one encoded piece')
  t.equal(html('![pic]({{Img}})', values), '<p><img src="https://img.test/p.png" alt="pic" /></p>\n')
  t.equal(html('![pic]({{Bad}})', values), '<p><img alt="pic" /></p>\n', 'an unsafe image source is dropped')
  t.equal(renderContent('[go]({{Url}}) [x](https://x.test/?q={{Part}}) ![i]({{Img}})', 'markdown', resolver(values)).body,
    '[go](https://good.test/a%20b) [x](https://x.test/?q=a%20b%26c%3Dd) ![i](https://img.test/p.png)')
  const body = attributed('[go]({{Bad}}) [ok]({{Url}})', values)
  t.same(body.ranges, [{ start: 3, length: 2, kind: 'link', href: 'https://good.test/a b' }], 'attrstring drops unsafe links')
})

t.test('values in code and attributes', async (t) => {
  const values: Values = { V: { formatted: '<i>"q"</i>' }, L: { formatted: 'js" onmouseover="x' } }
  t.equal(html('`{{V}}`', values), '<p><code>&lt;i&gt;&quot;q&quot;&lt;/i&gt;</code></p>\n', 'code shows the value as text, not a chip')
  t.equal(
    html('![{{V}}](https://i.test/x.png "{{V}}")', values),
    '<p><img src="https://i.test/x.png" alt="&lt;i&gt;&quot;q&quot;&lt;/i&gt;" title="&lt;i&gt;&quot;q&quot;&lt;/i&gt;" /></p>\n',
  )
  t.equal(html('```{{L}}\ncode\n```', values), '<pre><code class="language-jsonmouseoverx">code\n</code></pre>\n', 'a class keeps only word characters')
})

const HOSTILE_SOURCES = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<svg onload=alert(1)>',
  '<iframe src="https://evil.test"></iframe>',
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x](&#106;avascript:alert(1))',
  '[x](vbscript:msgbox(1))',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '![x](javascript:alert(1))',
  '<javascript:alert(1)>',
  '[x]( javascript:alert(1) )',
  '[x][r]\n\n[r]: javascript:alert(1)',
  '<style>body{display:none}</style>',
  '`<script>alert(1)</script>`',
]
const HOSTILE_VALUES = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  'javascript:alert(1)',
  ' java\tscript:alert(1)',
  '[x](javascript:alert(1))',
  '**bold** _em_ # head',
  '&lt;script&gt;',
  '{{Other}}',
  'tagph0q',
  '\uD800',
]

const ALLOWED_TAGS = new Set(['p', 'br', 'strong', 'em', 's', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span'])
const ALLOWED_ATTRIBUTES = new Set(['class', 'data-kind', 'data-var', 'href', 'src', 'alt', 'title', 'start', 'style'])
const TAG_IN_OUTPUT = /<\/?([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g
const ATTRIBUTE_IN_TAG = /\s([^\s=/]+)(?:="([^"]*)")?/g

/**
 * Why an HTML output could run script or load something unexpected: a "<" that does not open a well-formed tag
 * (markup hiding in text), a tag or attribute off the allow-list, or a URL whose scheme, read as the browser
 * reads it, is not safe. Text such as "onerror=" outside tags is harmless and not reported.
 */
function executableParts(output: string): string[] {
  const problems: string[] = []
  const tags = [...output.matchAll(TAG_IN_OUTPUT)]
  if (tags.length !== output.split('<').length - 1) problems.push('stray <')
  for (const [, name, attributes] of tags) {
    if (!ALLOWED_TAGS.has(name!.toLowerCase())) problems.push(`tag ${name}`)
    for (const [, attribute, value] of attributes!.matchAll(ATTRIBUTE_IN_TAG)) {
      if (attribute === '/') continue
      if (!ALLOWED_ATTRIBUTES.has(attribute!.toLowerCase())) problems.push(`attribute ${attribute}`)
      if ((attribute === 'href' || attribute === 'src') && !isSafeUrl(decodeEntities(value ?? ''), LINK_SCHEMES)) {
        problems.push(`url ${value}`)
      }
    }
  }
  return problems
}

t.test('the executable-HTML check itself catches what it must', async (t) => {
  t.same(executableParts('<p>a <b>b</b> &lt;script&gt; onerror=x</p>'), ['tag b', 'tag b'])
  t.same(executableParts('<img src="x" onerror="alert(1)" />'), ['attribute onerror'])
  t.same(executableParts('<a href="&#106;avascript:alert(1)">x</a>'), ['url &#106;avascript:alert(1)'])
  t.same(executableParts('<p>1 < 2</p>'), ['stray <'])
  t.same(executableParts('<script>alert(1)</script>'), ['tag script', 'tag script'])
})

function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

t.test('hostile sources never produce executable HTML', async (t) => {
  for (const source of HOSTILE_SOURCES) {
    for (const type of ['html', 'htmlnolinks'] as const) {
      t.same(executableParts(renderContent(source, type, resolver({})).body as string), [], `${type} of ${source}`)
    }
  }
  t.equal(html('<script>alert(1)</script>', {}), '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n', 'raw HTML shows as text')
  t.equal(html('[x](javascript:alert(1))', {}), '<p>[x](javascript:alert(1))</p>\n', 'a javascript: link stays text')
})

t.test('hostile values never produce executable HTML, in any position', async (t) => {
  const positions = ['{{V}}', '**{{V}}**', '[{{V}}](https://x.test/)', '[x]({{V}})', '[x](https://x.test/?v={{V}})', '![{{V}}]({{V}} "{{V}}")', '`{{V}}`', '```{{V}}\n{{V}}\n```', '<{{V}}>', '[x][{{V}}]']
  for (const position of positions) {
    for (const value of HOSTILE_VALUES) {
      const values: Values = { V: { formatted: value, questionNodeId: 'n1' } }
      for (const type of ['html', 'htmlnolinks'] as const) {
        const output = renderContent(position, type, resolver(values), { questionHref }).body as string
        t.same(executableParts(output), [], `${type} of ${position} with ${JSON.stringify(value)}`)
      }
    }
  }
  t.equal(html('{{V}}', { V: { formatted: '{{Other}}' }, Other: { formatted: 'SHOULD NOT APPEAR' } }).includes('SHOULD NOT APPEAR'), false, 'values are not templates')
  t.match(html('{{V}} tagph0q', { V: { formatted: 'tagph0q' } }), '>tagph0q</span> tagph0q</p>', 'placeholder look-alikes are plain text')
})

t.test('random mixes of hostile markdown and values stay inert', async () => {
  const fragment = fc.constantFrom(...HOSTILE_SOURCES, '{{V}}', '[[F]]', '[a](', ')', '](', '![', '"', "'", '<', '>', '&', '`', '\n', ' ', '*', '_', 'x')
  fc.assert(
    fc.property(fc.array(fragment, { maxLength: 12 }), fc.constantFrom(...HOSTILE_VALUES), fc.string(), (parts, v, f) => {
      const values: Values = { V: { formatted: v, questionNodeId: 'n1' }, F: { formatted: f } }
      for (const type of ['html', 'htmlnolinks'] as const) {
        const output = renderContent(parts.join(''), type, resolver(values), { questionHref }).body as string
        if (executableParts(output).length > 0) return false
      }
      return true
    }),
    { numRuns: 1000 },
  )
})

t.test('markdown output: values are escaped for where they sit', async (t) => {
  const values: Values = { V: { formatted: '**bold** [x](javascript:1) <b>\n# no heading' }, N: { formatted: '1. not a list' }, C: { formatted: 'a`b~~~' } }
  const md = (text: string): string => renderContent(text, 'markdown', resolver(values)).body as string
  t.equal(md('{{V}}'), '\\*\\*bold\\*\\* \\[x\\](javascript:1) \\<b\\> # no heading')
  t.equal(md('{{N}}'), '1\\. not a list')
  t.equal(md('`{{C}}`'), "`a'b'''`", 'inside code, only the characters that could end it change')
  const renderer = new MarkdownIt()
  t.equal(renderer.render(md('{{V}}')), '<p>**bold** [x](javascript:1) &lt;b&gt; # no heading</p>\n', 'the value reads as itself')
  t.equal(renderer.render(md('{{N}}')), '<p>1. not a list</p>\n')
})

t.test('escaped markdown values always read back as the same text', async () => {
  const renderer = new MarkdownIt()
  const markdownish = fc.array(fc.constantFrom('*', '_', '`', '[', ']', '(', ')', '<', '>', '&', '#', '-', '+', '=', '|', '~', '!', '\\', '1', '.', ' ', 'a', '\n', 'amp;', 'http://x'), { maxLength: 12 })
  fc.assert(
    fc.property(fc.oneof(fc.string(), markdownish.map((parts) => parts.join(''))), (value) => {
      const expected = renderer.utils.escapeHtml(value.replace(/\s+/g, ' ').trim())
      return renderer.renderInline(`x ${escapeMarkdown(value)} y`) === `x ${expected} y`
    }),
    { numRuns: 3000 },
  )
})

t.test('compiled templates are memoised within a bound', async (t) => {
  const memo = new BoundedMemo<number>(2)
  let computed = 0
  const get = (key: string) => memo.get(key, () => ++computed)
  t.equal(get('a'), 1)
  t.equal(get('a'), 1, 'a hit does not recompute')
  t.equal(get('b'), 2)
  t.equal(get('c'), 3, 'a full memo starts over')
  t.equal(memo.size, 1)
  t.equal(get('c'), 3)
  t.equal(get('a'), 4, 'earlier entries are gone')
  const first = renderContent('same {{X}}', 'html', resolver({ X: { formatted: '1' } })).body
  const second = renderContent('same {{X}}', 'html', resolver({ X: { formatted: '2' } })).body
  t.not(first, second, 'a memoised template still takes new values')
  t.match(second, '>2</span>')
})

t.test('a text without tags renders once per content type, the same as its first render', async (t) => {
  const text = 'A **fixed** text with [a link](https://example.com)'
  const never = (): undefined => {
    t.fail('a text without tags resolves nothing')
  }
  for (const type of CONTENT_TYPES) {
    const first = renderContent(text, type, never)
    const again = renderContent(text, type, never)
    t.same(again, first, type)
    t.same(first.missing, [])
  }
  const attributed = renderContent(text, 'attrstring', never).body
  t.not(renderContent(text, 'attrstring', never).body, attributed, 'an attributed string (an object) is made afresh each time')
  t.equal(renderContent(text, 'text', never).body, 'A fixed text with a link')
})
