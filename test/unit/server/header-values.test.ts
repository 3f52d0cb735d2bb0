// The one encoder of header-bound values (issue 22): redirect targets stay on the app's origin, download names
// survive any characters without breaking the header or losing what can be kept.
import t from 'tap'
import { validateHeaderValue } from 'node:http'
import contentDisposition from 'content-disposition'
import { dispositionHeader, externalLocation, sameOriginPath } from '../../../src/http/header-values.ts'
import { OPEN_REDIRECT_PAYLOADS, offOriginProblem } from '../../helpers/open-redirects.ts'

const BASE = 'http://localhost:3000'

t.test('every open-redirect payload is refused or becomes a path on the app', async (t) => {
  for (const payload of OPEN_REDIRECT_PAYLOADS) {
    const path = sameOriginPath(payload, BASE)
    if (path === null) continue
    t.equal(offOriginProblem(path, BASE), null, `${JSON.stringify(payload).slice(0, 50)} → ${path.slice(0, 50)}`)
    t.doesNotThrow(() => validateHeaderValue('location', path))
  }
  t.equal(sameOriginPath(`/\t/localhost:18081/x`, BASE), null, 'the finding')
  t.equal(sameOriginPath('/adviceset/3/publish/versions?x=1#v', BASE), '/adviceset/3/publish/versions?x=1#v')
  t.equal(sameOriginPath('http://localhost:3000/profile', BASE), '/profile', 'the app\'s own absolute URL')
  t.equal(sameOriginPath('https://localhost:3000/profile', 'https://localhost:3000'), '/profile')
  t.equal(sameOriginPath('http://localhost:3000/profile', 'https://localhost:3000'), null, 'another scheme is another origin')
  for (const notText of [undefined, null, 1, ['/a'], { a: 1 }, '']) t.equal(sameOriginPath(notText, BASE), null)
})

t.test('an external location is http(s) without credentials, in its parsed form', async (t) => {
  t.equal(externalLocation('https://example.com/a b'), 'https://example.com/a%20b')
  t.equal(externalLocation('https://example.com/\r\nx'), 'https://example.com/x')
  t.equal(externalLocation('javascript:alert(1)'), null)
  t.equal(externalLocation('https://user:pw@example.com/'), null)
  t.equal(externalLocation('/relative'), null)
})

t.test('download names: hostile file names make a valid header that reads back safely', async (t) => {
  const names: Array<[string, string]> = [
    ['report.csv', 'report.csv'],
    ['a\r\nSet-Cookie: x=1.txt', 'a_Set-Cookie: x=1.txt'],
    ['a\u0000b.txt', 'a_b.txt'],
    ['say "hi".md', 'say "hi".md'],
    ['folder\\name.txt', 'name.txt'],
    ['../../etc/passwd', 'passwd'],
    ['semi;colon=1.txt', 'semi;colon=1.txt'],
    ['Übersicht – Ruhestand.pdf', 'Übersicht – Ruhestand.pdf'],
    ['日本語.txt', '日本語.txt'],
    ['emoji 🎉.png', 'emoji 🎉.png'],
    ['tab\there.txt', 'tab_here.txt'],
    ['\u007f\u001b[31mred.txt', '_[31mred.txt'],
    ['', 'download'],
    ['\r\n', '_'],
  ]
  for (const [name, readBack] of names) {
    for (const type of ['inline', 'attachment'] as const) {
      const header = dispositionHeader(name, type)
      t.doesNotThrow(() => validateHeaderValue('content-disposition', header), `${JSON.stringify(name)}: a valid header`)
      t.notMatch(header, /[\u0000-\u001f\u007f]/, `${JSON.stringify(name)}: no control characters`)
      const parsed = contentDisposition.parse(header)
      t.equal(parsed.type, type)
      t.equal(parsed.parameters['filename*'] ?? parsed.parameters.filename, readBack, `${JSON.stringify(name)} reads back as ${JSON.stringify(readBack)}`)
    }
  }
  t.match(dispositionHeader('日本語.txt', 'attachment'), /filename="\?\?\?\.txt"; filename\*=UTF-8''%E6%97%A5/, 'an ASCII fallback beside the UTF-8 name')
})
