import t from 'tap'
import fc from 'fast-check'
import { escapeHtml, fold, highlight, queryWords, terms, typoMatch, withinOneEdit } from '../../../src/search/text.ts'
import { parseParams } from '../../../src/search/instantsearch.ts'
import { ValidationError } from '../../../src/services/errors.ts'

t.test('folding and words', async (t) => {
  t.equal(fold('Café CRÈME Ångström'), 'cafe creme angstrom')
  t.equal(terms('  Tax-free <b>ISA</b>: 20% (2026)! '), 'tax free b isa b 20 2026')
  t.same(queryWords('Pension pen'), [{ word: 'pension', prefix: false }, { word: 'pen', prefix: true }], 'the last word is a prefix')
  t.same(queryWords('pension '), [{ word: 'pension', prefix: false }], 'unless a space ends the query')
  t.same(queryWords('tax tax TAX'), [{ word: 'tax', prefix: true }], 'repeated words count once')
  t.equal(queryWords('a '.repeat(300) + 'zebra').length, 1, 'past 512 characters nothing is read')
  t.equal(queryWords('w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12').length, 10, 'at most ten words')
})

t.test('withinOneEdit agrees with a brute-force edit distance', async (t) => {
  const distance = (a: string, b: string): number => {
    const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
    for (let i = 1; i <= a.length; i++) {
      for (let j = 1; j <= b.length; j++) {
        d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1)
      }
    }
    return d[a.length]![b.length]!
  }
  fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 6 }), fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 6 }),
    (a, b) => withinOneEdit(a, b) === (distance(a, b) <= 1)))
})

t.test('typo matches', async (t) => {
  t.equal(typoMatch('glaceir', 'glacier', false), 'glacier', 'a swap')
  t.equal(typoMatch('glacer', 'glacier', false), 'glacier', 'a letter left out')
  t.equal(typoMatch('glxcxer', 'glacier', false), null, 'two typos')
  t.equal(typoMatch('tex', 'tax', false), null, 'three letters get none')
  t.equal(typoMatch('glacier', 'glacier', false), null, 'an exact match is no typo')
  t.equal(typoMatch('glaic', 'glaciers', true), 'glaci', 'while typing: the beginning of the same length')
  t.equal(typoMatch('glcie', 'glaciers', true), 'glacie', 'or one longer')
  t.equal(typoMatch('glac', 'glaciers', true), null, 'a plain prefix is no typo')
  t.equal(typoMatch('glaic', 'glaciers', false), null, 'a whole word is not matched by its beginning')
})

t.test('highlight', async (t) => {
  const query = [{ word: 'pen', prefix: true, typos: [] }, { word: 'glacier', prefix: false, typos: ['glaceir'] }]
  t.same(highlight('Glaceir <pensions> & pens', query, '<em>', '</em>'), {
    value: '<em>Glaceir</em> &lt;<em>pen</em>sions&gt; &amp; <em>pen</em>s', matchLevel: 'full', matchedWords: ['pen', 'glacier'],
  })
  t.same(highlight('Penny', [{ word: 'penn', prefix: false, typos: [] }], '<em>', '</em>'), { value: 'Penny', matchLevel: 'none', matchedWords: [] }, 'a whole word must match whole')
  t.equal(highlight('Éclair', [{ word: 'ecl', prefix: true, typos: [] }], '[', ']').value, '[Écl]air', 'the accented letter is kept')
  t.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;')
})

t.test('instantsearch params', async (t) => {
  const parsed = parseParams({ query: 'q', page: '2', facets: ['ownerName', 'tags'], facetFilters: [['ownerName:Acme', 'tags:Tax'], 'entityType.id:9'], highlightPreTag: '<x>' })
  t.same(parsed.facetFilters, [[{ field: 'ownerName', value: 'Acme' }, { field: 'tags', value: 'Tax' }], [{ field: 'entityType.id', value: '9' }]])
  t.equal(parsed.page, 2)
  t.equal(parsed.highlightPreTag, '<x>')
  t.equal(parsed.highlightPostTag, '</mark>')
  t.equal(parseParams({ page: -1 }).page, 0)
  t.same(parseParams({ facets: '*' }).facets.length, 8, 'every facet')
  t.same(parseParams({ facetFilters: '["ownerName:A:B"]' }).facetFilters, [[{ field: 'ownerName', value: 'A:B' }]], 'JSON text; a value may hold a colon')
  t.throws(() => parseParams({ facets: ['owner_id'] }), ValidationError)
  t.throws(() => parseParams({ facetFilters: [['-ownerId:x']] }), ValidationError, 'negation is not offered')
  t.throws(() => parseParams({ facetFilters: [[{ ownerId: 'x' }]] }), ValidationError)
})
