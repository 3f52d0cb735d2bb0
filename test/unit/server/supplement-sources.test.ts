// Supplements as sources of advice (services/files/sources.ts): their links, joining them to a node's own sources,
// telling them apart again, and making the app's links absolute for partners.
import t from 'tap'
import { openPath, sourceOf, splitSources, withAbsoluteSourceLinks, withLinkedSources } from '../../../src/services/files/sources.ts'
import type { SupplementRow } from '../../../src/db/queries/supplements.ts'
import type { AdviceSetModel } from '../../../src/engine/index.ts'

const row = (id: number, format: SupplementRow['format'], extra: Partial<SupplementRow> = {}) => ({
  id, format, name: `S${id}`, url: null, accessToken: 'tok/en+', ...extra,
}) as SupplementRow

t.test('where each kind opens without signing in', async (t) => {
  t.equal(openPath(row(1, 'image')), '/api/supplements/1/view?token=tok%2Fen%2B')
  t.equal(openPath(row(2, 'viz')), '/visualizations/2/iframe?token=tok%2Fen%2B')
  t.equal(openPath(row(3, 'link', { url: 'https://example.com/a' })), 'https://example.com/a')
  t.same(sourceOf(row(1, 'file')), { id: 'supplement-1', name: 'S1', uri: '/api/supplements/1/view?token=tok%2Fen%2B' })
})

t.test('linked supplements follow the node’s own sources, each once, and split apart again', async (t) => {
  const own = [{ id: 'guide', name: 'Guide', uri: 'https://example.com' }]
  const joined = withLinkedSources(own, [row(1, 'file'), row(1, 'file'), row(2, 'viz')])
  t.same(joined.map((s) => s.id), ['guide', 'supplement-1', 'supplement-2'])
  t.equal(withLinkedSources(own, undefined), own)
  t.same(splitSources(joined), { own, supplementIds: [1, 2] })
  t.same(splitSources([{ id: 'supplement-x', name: 'typed' }]), { own: [{ id: 'supplement-x', name: 'typed' }], supplementIds: [] })
})

t.test('absolute links for partners, in every rule and external rule, the rest untouched', async (t) => {
  const model = {
    id: '1', name: 'Set', entities: [],
    rules: [{ id: '1', name: 'R', adviceSetId: '1', nodes: [{ id: '5', type: 'condition', children: [
      { id: '6', type: 'advice', children: [], sources: [{ id: 'supplement-1', name: 'S1', uri: '/api/supplements/1/view?token=t' }, { id: 'web', name: 'Web', uri: 'https://example.com' }] },
    ] }] }],
    externalRules: [{ id: '2', name: 'X', adviceSetId: '2', nodes: [{ id: '7', type: 'advice', children: [], sources: [{ id: 'supplement-2', name: 'S2', uri: '/visualizations/2/iframe?token=t' }] }] }],
  } as unknown as AdviceSetModel
  const absolute = withAbsoluteSourceLinks(model, 'https://studio.example')
  t.same(absolute.rules[0]!.nodes[0]!.children[0]!.sources, [
    { id: 'supplement-1', name: 'S1', uri: 'https://studio.example/api/supplements/1/view?token=t' }, { id: 'web', name: 'Web', uri: 'https://example.com' },
  ])
  t.equal(absolute.externalRules![0]!.nodes[0]!.sources![0]!.uri, 'https://studio.example/visualizations/2/iframe?token=t')
  t.equal(model.rules[0]!.nodes[0]!.children[0]!.sources![0]!.uri, '/api/supplements/1/view?token=t', 'the stored model is not changed')
})
