import t from 'tap'
import { THIS_ADVICE_SET, highlightParts, hitView, parseHit } from '../../../islands/search-box/hit.ts'
import type { SearchHit } from '../../../islands/search-box/hit.ts'

function rawHit(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    objectID: 'node-7', entityType: { id: 1, displayName: 'Advice' }, ownerId: 'acme', ownerName: 'Acme',
    name: 'Save & invest', name_alt: '', uri: '/adviceset/3/rule/5/show#node-7', nodeId: 7, rule: { id: 5 },
    adviceset: { id: 3, name: 'Pensions', name_alt: 'Pension planner', isPublic: false, isStarter: true },
    _highlightResult: { name: { value: '<mark>Save</mark> &amp; invest', matchLevel: 'partial', matchedWords: ['save'] } },
    ...over,
  }
}

const parsed = (over: Record<string, unknown> = {}): SearchHit => {
  const hit = parseHit(rawHit(over))
  if (!hit) throw new Error('fixture hit did not parse')
  return hit
}

t.test('highlightParts splits on the tags and unescapes the text', async (t) => {
  t.same(highlightParts('<mark>Save</mark> &amp; invest'), [{ text: 'Save', marked: true }, { text: ' & invest', marked: false }])
  t.same(highlightParts('a &lt;b&gt; &quot;c&quot; &#39;d&#39;'), [{ text: 'a <b> "c" \'d\'', marked: false }])
  t.same(highlightParts('x<mark>y</mark>z<mark>w</mark>'), [
    { text: 'x', marked: false }, { text: 'y', marked: true }, { text: 'z', marked: false }, { text: 'w', marked: true },
  ])
  t.same(highlightParts('&lt;script&gt;'), [{ text: '<script>', marked: false }], 'escaped markup stays text')
  t.same(highlightParts(''), [])
})

t.test('parseHit rejects what is not a hit and reads ids as strings', async (t) => {
  t.equal(parseHit(null), undefined)
  t.equal(parseHit({ objectID: 'x' }), undefined, 'a hit needs a uri')
  const hit = parsed()
  t.equal(hit.nodeId, '7')
  t.equal(hit.ruleId, '5')
  t.same(hit.adviceSet, { id: '3', name: 'Pensions', nameAlt: 'Pension planner' })
  t.equal(parsed({ rule: null, nodeId: null }).ruleId, null)
})

t.test('a rule node result: icon by type, highlighted name, parent set, owner when it differs', async (t) => {
  const view = hitView(parsed(), { currentOwnerId: 'me', currentAdviceSetId: null })
  t.equal(view.iconClass, 'icon-advice')
  t.equal(view.typeName, 'Advice')
  t.same(view.title, [{ text: 'Save', marked: true }, { text: ' & invest', marked: false }])
  t.equal(view.parent, 'Pension planner', 'the parent set by its display name')
  t.equal(view.byline, 'By: Acme')
  t.equal(view.uri, '/adviceset/3/rule/5/show#node-7')
})

t.test('"This advice set" for the current one; no byline for the own owner', async (t) => {
  const view = hitView(parsed(), { currentOwnerId: 'acme', currentAdviceSetId: '3' })
  t.equal(view.parent, THIS_ADVICE_SET)
  t.equal(view.byline, null)
})

t.test('advice sets show their name_alt highlighted, and no parent line repeating it', async (t) => {
  const set = parsed({
    objectID: 'adviceset-3', entityType: { id: 9, displayName: 'Advice Set' }, name: 'Pensions', name_alt: 'Pension planner',
    nodeId: null, rule: null,
    _highlightResult: { name: { value: 'Pensions' }, name_alt: { value: '<mark>Pension</mark> planner' } },
  })
  const view = hitView(set, { currentOwnerId: 'acme', currentAdviceSetId: null })
  t.equal(view.iconClass, 'icon-advice-set')
  t.same(view.title, [{ text: 'Pension', marked: true }, { text: ' planner', marked: false }])
  t.equal(view.parent, null)
  const unnamed = hitView(parsed({
    entityType: { id: 9, displayName: 'Advice Set' }, name: 'Pensions', name_alt: '',
    adviceset: { id: 3, name: 'Pensions', name_alt: '' }, _highlightResult: { name: { value: '<mark>Pens</mark>ions' } },
  }), { currentOwnerId: 'acme', currentAdviceSetId: null })
  t.same(unnamed.title, [{ text: 'Pens', marked: true }, { text: 'ions', marked: false }], 'no name_alt: the name')
})

t.test('a hit without highlights shows its plain name; an unknown type gets the generic icon', async (t) => {
  const view = hitView(parsed({ _highlightResult: undefined, entityType: { id: 99, displayName: 'Gadget' } }), { currentOwnerId: null, currentAdviceSetId: null })
  t.same(view.title, [{ text: 'Save & invest', marked: false }])
  t.equal(view.iconClass, 'icon-unknown')
  t.equal(view.typeName, 'Gadget')
})
