import t from 'tap'
import { prefixToken, prefixTokens } from '../../../src/search/prefix-tokens.ts'
import { words } from '../../../src/search/text.ts'

t.test('every word gives its one- to six-letter beginnings, once each', async (t) => {
  t.same(prefixTokens('pension pen p').split(' ').sort(), ['^p', '^pe', '^pen', '^pens', '^pensi', '^pensio'])
  t.same(prefixTokens('tax relief').split(' ').sort(), ['^r', '^re', '^rel', '^reli', '^relie', '^relief', '^t', '^ta', '^tax'])
  t.equal(prefixTokens(''), '', 'no words, no tokens')
})

t.test('no typed word can be a token', async (t) => {
  t.same(words(prefixToken('pen')), ['pen'], 'typing the token gives back the plain word')
  t.notOk(words('^pen ~public').some((w) => w.startsWith('^') || w.startsWith('~')))
})
