// The directory form of an advice-set file (issue 28, `export --dir`): set.json and one file per rule, joined back
// into the document's exact bytes (as a property over generated documents); a one-node edit is a few lines of one
// rule file; a directory that does not join is refused naming the file; server errors are placed in the right file.
import t from 'tap'
import fc from 'fast-check'
import { documentText } from '../../../src/services/library/portable-format.ts'
import {
  joinDocumentText, placeInDirectory, PortableDirError, ruleFileName, ruleSlug, splitDocument, splitDocumentText,
} from '../../../src/services/library/portable-dir.ts'
import { documentArbitrary, sampleDocument } from '../../helpers/portable-documents.ts'

function refusal(files: Map<string, string>): PortableDirError {
  try {
    joinDocumentText(files)
  } catch (error) {
    if (error instanceof PortableDirError) return error
    throw error
  }
  throw new Error('the directory was joined')
}

t.test('the layout: set.json with the rule keys in order, one canonical file per rule', async (t) => {
  const doc = sampleDocument()
  const files = splitDocument(doc)
  t.same([...files.keys()], ['set.json', 'rules/01-plan-plan0001.json', 'rules/02-helper-helper01.json'])
  const set = JSON.parse(files.get('set.json')!)
  t.same(set.rules, ['plan0001', 'helper01'], 'the rules by key, in run order')
  t.same(Object.keys(set), Object.keys(doc), 'the document’s keys in their order, rules in its place')
  t.equal(files.get('rules/02-helper-helper01.json'), `${JSON.stringify(doc.rules[1], null, 2)}\n`, 'two spaces and a final newline')
  t.ok([...files.values()].every((text) => text.endsWith('}\n')))
})

t.test('joining gives the document back byte for byte', async (t) => {
  const text = documentText(sampleDocument())
  t.equal(joinDocumentText(splitDocumentText(text)), text)
  fc.assert(fc.property(documentArbitrary, (doc) => {
    const exact = documentText(doc)
    return joinDocumentText(splitDocument(doc)) === exact && joinDocumentText(splitDocumentText(exact)) === exact
  }), { numRuns: 300 })
  t.pass('300 generated documents (unicode, every node type, integer-like keys) joined to their exact text')
})

t.test('a rule file is found by its key, not its name; order comes from set.json', async (t) => {
  const text = documentText(sampleDocument())
  const files = splitDocumentText(text)
  const renamed = new Map([...files].map(([p, v]) => [p === 'rules/01-plan-plan0001.json' ? 'rules/zz-anything.json' : p, v]))
  t.equal(joinDocumentText(renamed), text, 'a renamed file still counts')
  const set = JSON.parse(files.get('set.json')!)
  set.rules = ['helper01', 'plan0001']
  const reordered = new Map(files).set('set.json', `${JSON.stringify(set, null, 2)}\n`)
  t.same(JSON.parse(joinDocumentText(reordered)).rules.map((r: { key: string }) => r.key), ['helper01', 'plan0001'])
})

t.test('a one-node edit changes a few lines of one rule file', async (t) => {
  const before = splitDocument(sampleDocument())
  const edited = sampleDocument()
  edited.rules[0]!.nodes[1]!.children[0]!.headline = 'Retire now'
  const after = splitDocument(edited)
  const changedFiles = [...after].filter(([p, text]) => before.get(p) !== text).map(([p]) => p)
  t.same(changedFiles, ['rules/01-plan-plan0001.json'], 'only the rule’s file')
  const a = before.get('rules/01-plan-plan0001.json')!.split('\n')
  const b = after.get('rules/01-plan-plan0001.json')!.split('\n')
  t.equal(a.length, b.length)
  t.same(b.filter((line, i) => line !== a[i]), ['          "headline": "Retire now",'], 'one line')
})

t.test('a directory that does not join is refused naming the file', async (t) => {
  const files = splitDocument(sampleDocument())
  t.match(refusal(new Map()).message, /^set\.json: missing/)
  const noHelper = new Map(files)
  noHelper.delete('rules/02-helper-helper01.json')
  t.match(refusal(noHelper).message, /^set\.json: lists the rule key “helper01”, but no file under rules\/ holds it/)
  const twice = new Map(files).set('rules/03-copy.json', files.get('rules/02-helper-helper01.json')!)
  t.match(refusal(twice).message, /^rules\/03-copy\.json: holds the rule key “helper01”, as rules\/02-helper-helper01\.json does/)
  const stray = new Map(files).set('rules/09-new.json', '{\n  "key": "new1"\n}\n')
  t.match(refusal(stray).message, /^rules\/09-new\.json: holds the rule key “new1”, which set\.json’s “rules” does not list/)
  const broken = new Map(files).set('rules/01-plan-plan0001.json', '{\n  "key": "plan0001",\n}\n')
  t.match(refusal(broken).message, /^rules\/01-plan-plan0001\.json: line 3, column 1/)
  const notKeys = new Map(files).set('set.json', '{\n  "rules": [1]\n}\n')
  t.match(refusal(notKeys).message, /^set\.json: “rules” must list the rule keys/)
  t.equal(joinDocumentText(new Map(files).set('notes/readme.json', 'not json')), documentText(sampleDocument()), 'other files are not looked at')
})

t.test('a problem the server names by pointer is placed in the directory’s own file', async (t) => {
  const files = splitDocument(sampleDocument())
  const inRule = placeInDirectory(files, '/rules/1/nodes/0/headline')
  t.same(inRule, { file: 'rules/02-helper-helper01.json', pointer: '/nodes/0/headline', line: 9, column: 19 })
  t.match(files.get(inRule.file)!.split('\n')[inRule.line! - 1], /"headline": "A tip"/)
  t.match(placeInDirectory(files, '/dictionary/1/name'), { file: 'set.json', pointer: '/dictionary/1/name', line: Number })
  t.match(placeInDirectory(files, '/rules/0/nodes/9'), { file: 'rules/01-plan-plan0001.json', pointer: '/nodes/9', line: 5 }, 'a missing value at its nearest parent')
})

t.test('file names: position, a readable slug and the key', async (t) => {
  t.equal(ruleSlug('Pensions: Über 65 — “early”!'), 'pensions-uber-65-early')
  t.equal(ruleSlug('שלום'), 'rule', 'no ASCII letter: a plain word')
  t.equal(ruleSlug('x'.repeat(80)).length, 40)
  t.equal(ruleFileName(4, 120, { key: 'k1', name: 'Plan' }), 'rules/005-plan-k1.json', 'padded to sort in run order')
})
