// The one-edit variants a query word's typo matches are looked up by (src/search/typo-variants.ts).
import t from 'tap'
import { looksUpVariants, oneEditVariants, typoLookups } from '../../../src/search/typo-variants.ts'
import { withinOneEdit } from '../../../src/search/text.ts'

t.test('every string one edit away, and nothing else', async (t) => {
  const variants = oneEditVariants('pens')
  for (const v of ['ens', 'pns', 'pen', 'pans', 'pent', 'opens', 'pends', 'pensa', 'epns', 'pesn']) t.ok(variants.has(v), v)
  t.notOk(variants.has('pens'), 'not the word itself')
  t.ok([...variants].every((v) => withinOneEdit('pens', v)), 'each within one edit')
  // 4 left out, 4 × 36 changed (4 of them the word), 5 × 36 added, 3 swapped, less repeats: all distinct strings.
  t.ok(variants.size > 300 && variants.size < 4 + 4 * 36 + 5 * 36 + 3, `${variants.size} variants`)
})

t.test('a whole word looks up terms equal to a variant; a word being typed, beginnings too', async (t) => {
  const whole = typoLookups('pens', false)
  t.same(whole.beginning, [])
  t.ok(whole.equal.includes('pen') && whole.equal.includes('pans') && whole.equal.includes('pensa'))
  const typed = typoLookups('pens', true)
  t.ok(typed.equal.includes('pen'), 'a shorter variant only as a whole term (as a beginning it would reach every "pen…")')
  t.notOk(typed.beginning.includes('pen'))
  t.ok(typed.beginning.includes('pans') && typed.beginning.includes('opens'), 'as long or one longer: a beginning')
  t.notOk(typed.beginning.some((v) => v.startsWith('pens')), 'not what the word as typed reaches already')
})

t.test('words of other letters, and long words, are looked up by pattern instead', async (t) => {
  t.ok(looksUpVariants('pension2026'))
  t.notOk(looksUpVariants('пенсия'))
  t.notOk(looksUpVariants('superannuationaccounts'))
})
