import t from 'tap'
import { redactUrl } from '../../../src/http/log-redaction.ts'

t.test('secrets in URLs are redacted for the log', async (t) => {
  t.equal(redactUrl('/adviceset/3/embed?key=as_live_ab12cd34_secretsecret&x=1'), '/adviceset/3/embed?key=[redacted]&x=1')
  t.equal(redactUrl('/adviceset/3/embed?preview=draft&KEY=abc'), '/adviceset/3/embed?preview=draft&KEY=[redacted]')
  t.equal(redactUrl('/password/reset/4f9a0c?next=/'), '/password/reset/[redacted]?next=/')
  t.equal(redactUrl('/password/setup/abc'), '/password/setup/[redacted]')
  t.equal(redactUrl('/library/search?q=keys&monkey=1'), '/library/search?q=keys&monkey=1', 'other parameters stay')
})
