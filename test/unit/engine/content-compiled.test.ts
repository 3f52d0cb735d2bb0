// Issue 18 point 6: a compiled set's texts are compiled once per set, however many it holds. Before, they went
// through one bounded memo shared by every text, which a set with more texts than its bound (2,000) emptied on every
// run, so each run compiled its markdown again.
import t from 'tap'
import { compileAdviceSet, evaluate, type AdviceSetModel, type NodeModel } from '../../../src/engine/index.ts'
import { markdown } from '../../../src/engine/content/markdown.ts'

const ADVICE_COUNT = 3000

function manyAdviceSet(): AdviceSetModel {
  const nodes: NodeModel[] = []
  for (let i = 0; i < ADVICE_COUNT; i++) {
    nodes.push({ id: `a${i}`, type: 'advice', headline: `Plan ${i} for {{Name}}`, text: `**Plan ${i}** suits {{Name}}.`, children: [] })
  }
  return {
    id: 'many', name: 'Many texts',
    rules: [{ id: 'r', name: 'R', adviceSetId: 'many', nodes: [{ id: 'ask', type: 'inputRequest', variable: 'Name', question: 'Your {{Name}}?', children: [] }, ...nodes] }],
    entities: [{ id: 'v', name: 'Name', kind: 'variable', dataType: 'freetext' }],
  }
}

t.test('a set with more texts than the shared memo holds compiles each text once', async (t) => {
  const compiled = compileAdviceSet(manyAdviceSet())
  const render = markdown.render.bind(markdown)
  let renders = 0
  markdown.render = (source, env) => {
    renders++
    return render(source, env)
  }
  t.teardown(() => { markdown.render = render })

  const first = evaluate(compiled, { Name: 'Ada' }, { contentType: 'html', questionHref: (id) => `/q/${id}` })
  t.equal(first.advice.length, ADVICE_COUNT)
  const compiledOnce = renders
  t.ok(compiledOnce >= ADVICE_COUNT * 2 && compiledOnce <= ADVICE_COUNT * 2 + 1, `every headline and text compiled on the first run (${compiledOnce})`)

  const second = evaluate(compiled, { Name: 'Bo & Co' }, { contentType: 'html', questionHref: (id) => `/q/${id}` })
  t.equal(renders, compiledOnce, 'the second run compiles nothing')
  t.equal(second.advice[7]!.headline, '<p>Plan 7 for <a class="var-link" href="/q/ask"><span class="var-chip" data-kind="variable" data-var="Name">Bo &amp; Co</span></a></p>\n')
  t.equal(second.advice[7]!.text, '<p><strong>Plan 7</strong> suits <a class="var-link" href="/q/ask"><span class="var-chip" data-kind="variable" data-var="Name">Bo &amp; Co</span></a>.</p>\n')

  evaluate(compiled, { Name: 'Cy' }, { contentType: 'htmlnolinks' })
  const noLinks = renders - compiledOnce
  evaluate(compiled, { Name: 'Di' }, { contentType: 'htmlnolinks' })
  t.equal(renders - compiledOnce, noLinks, 'each content type is compiled once too')
})

t.test('one run shows a variable under each spelling of its tag', async (t) => {
  const compiled = compileAdviceSet({
    id: 's', name: 'S',
    rules: [{
      id: 'r', name: 'R', adviceSetId: 's', nodes: [
        { id: 'ask', type: 'inputRequest', variable: 'Name', question: 'Name?', children: [] },
        { id: 'a', type: 'advice', headline: 'Hi {{Name}}', text: 'Inside a [link {{Name}}](https://example.com) and out {{Name}}', children: [] },
      ],
    }],
    entities: [{ id: 'v', name: 'Name', kind: 'variable', dataType: 'freetext' }],
  })
  const result = evaluate(compiled, { Name: 'Ada' }, { contentType: 'html', questionHref: (id) => `/q/${id}` })
  t.match(result.advice[0]!.headline, /<a class="var-link" href="\/q\/ask"><span class="var-chip"[^>]*>Ada<\/span><\/a><\/p>\n$/, 'a linked chip in running text')
  const text = result.advice[0]!.text as string
  t.match(text, /<a href="https:\/\/example.com">link <span class="var-chip" data-kind="variable" data-var="Name">Ada<\/span><\/a>/, 'no link inside a link')
  t.match(text, /out <a class="var-link" href="\/q\/ask">/, 'the same value linked again outside it')
})

t.test('each text shows the values of its moment in the run, and a missing tag is reported once per text', async (t) => {
  const advice = (id: string, text: string): NodeModel => ({ id, type: 'advice', headline: id, text, children: [] })
  const compiled = compileAdviceSet({
    id: 's', name: 'S',
    rules: [{
      id: 'r', name: 'R', adviceSetId: 's', nodes: [
        { id: 'ask1', type: 'inputRequest', variable: 'Age', question: 'Age?', children: [] },
        { id: 'set', type: 'variableAssignment', expression: '{{Score}} = 1', children: [] },
        advice('first', '{{Score}} / [[Double]] / {{Age}}'),
        { id: 'add', type: 'variableAssignment', expression: '{{Score}} += 1', children: [] },
        advice('second', '{{Score}} / [[Double]]'),
        { id: 'same', type: 'variableAssignment', expression: '{{Score}} += 0', children: [] },
        { id: 'ask2', type: 'inputRequest', variable: 'Age', question: 'Age again?', children: [] },
        advice('third', '{{Score}} / [[Double]] / {{Age}} / {{Nope}} and {{Nope}}'),
      ],
    }],
    entities: [
      { id: 'v1', name: 'Score', kind: 'variable', dataType: 'number' },
      { id: 'v2', name: 'Age', kind: 'variable', dataType: 'number' },
      { id: 'f', name: 'Double', kind: 'formula', dataType: 'number', expression: '{{Score}} * 2' },
    ],
  })
  const result = evaluate(compiled, { Age: 40 }, { contentType: 'text' })
  t.same(result.advice.map((item) => item.text), ['1 / 2 / 40', '2 / 4', '2 / 4 / 40 /  and '])
  t.same(result.errors.map((error) => [error.nodeId, error.code, error.variable]), [['third', 'UNDEFINED_IN_OUTPUT', 'Nope']])

  const html = evaluate(compiled, { Age: 40 }, { contentType: 'html', questionHref: (id) => `/q/${id}` })
  t.match(html.advice[0]!.text, /href="\/q\/ask1"/, 'the chip links to the question that set the value')
  t.match(html.advice[2]!.text, /href="\/q\/ask2"/, 'after the variable is asked again, to the later question')
  t.equal((html.advice[2]!.text as string).split('var-missing').length - 1, 2, 'both mentions of the missing tag are shown as missing')
  t.equal(html.variables.Score?.valueFormatted, '2', 'the variables list shows the final value')
})
