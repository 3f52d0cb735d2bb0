import t from 'tap'
import fc from 'fast-check'
import { NAME_PATTERN } from '../../../src/engine/expr/names.ts'
import { findUndefinedTags, parseTemplate, templateTags, type TemplatePart } from '../../../src/engine/template/index.ts'

function join(parts: TemplatePart[]): string {
  return parts.map((part) => (part.kind === 'text' ? part.text : part.raw)).join('')
}

t.test('variables and formulas among text', async (t) => {
  t.same(parseTemplate('Hello {{Name}}, you owe [[Total_Due]].'), [
    { kind: 'text', text: 'Hello ' },
    { kind: 'variable', name: 'Name', raw: '{{Name}}' },
    { kind: 'text', text: ', you owe ' },
    { kind: 'formula', name: 'Total_Due', raw: '[[Total_Due]]' },
    { kind: 'text', text: '.' },
  ])
  t.same(parseTemplate('{{A}}{{B}}'), [
    { kind: 'variable', name: 'A', raw: '{{A}}' },
    { kind: 'variable', name: 'B', raw: '{{B}}' },
  ])
  t.same(parseTemplate(''), [])
  t.same(parseTemplate('no tags at all'), [{ kind: 'text', text: 'no tags at all' }])
})

t.test('spaces just inside the brackets are allowed', async (t) => {
  t.same(parseTemplate('{{ Var }}'), [{ kind: 'variable', name: 'Var', raw: '{{ Var }}' }])
  t.same(parseTemplate('[[  Rate ]]'), [{ kind: 'formula', name: 'Rate', raw: '[[  Rate ]]' }])
})

t.test('names follow SPEC §5', async (t) => {
  t.same(parseTemplate('{{1st_Choice?}}'), [{ kind: 'variable', name: '1st_Choice?', raw: '{{1st_Choice?}}' }])
  t.same(parseTemplate('{{Größe}}'), [{ kind: 'variable', name: 'Größe', raw: '{{Größe}}' }])
  for (const notAName of ['{{_Hidden}}', '{{?Q}}', '{{two words}}', '{{a-b}}', '{{}}', '{{ }}', '[[x.y]]', '{{Var}', '{Var}}', '[[Open']) {
    t.same(parseTemplate(notAName), [{ kind: 'text', text: notAName }], `${notAName} is text`)
  }
})

t.test('extra brackets stay as text around the tag', async (t) => {
  t.same(parseTemplate('{{{Var}}}'), [
    { kind: 'text', text: '{' },
    { kind: 'variable', name: 'Var', raw: '{{Var}}' },
    { kind: 'text', text: '}' },
  ])
  t.same(parseTemplate('[[[F]]]'), [
    { kind: 'text', text: '[' },
    { kind: 'formula', name: 'F', raw: '[[F]]' },
    { kind: 'text', text: ']' },
  ])
  t.same(parseTemplate('{{A]]'), [{ kind: 'text', text: '{{A]]' }], 'brackets must match')
})

t.test('templates recognise exactly the names the expression language accepts', async () => {
  const nameChars = fc.constantFrom('a', 'Z', '0', '9', '_', '?', '-', ' ', '.', 'é', 'ß', 'Ж', '٣', '½', '😀', '\t', '$')
  fc.assert(
    fc.property(fc.array(nameChars, { minLength: 1, maxLength: 8 }).map((chars) => chars.join('')), (name) => {
      const parts = parseTemplate(`{{${name}}}`)
      const isTag = parts.length === 1 && parts[0]!.kind === 'variable'
      return isTag === NAME_PATTERN.test(name.trim())
    }),
    { numRuns: 2000 },
  )
})

t.test('parsing loses nothing: text and raw tags rebuild the input', async () => {
  const templateChars = fc.constantFrom('{', '}', '[', ']', 'A', '1', '_', '?', ' ', 'x', '\n', 'é')
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.array(templateChars, { maxLength: 40 }).map((c) => c.join(''))), (text) => {
      const parts = parseTemplate(text)
      const noEmptyOrAdjacentText = parts.every(
        (part, i) => part.kind !== 'text' || (part.text !== '' && parts[i + 1]?.kind !== 'text'),
      )
      return join(parts) === text && noEmptyOrAdjacentText
    }),
    { numRuns: 2000 },
  )
})

t.test('templateTags lists each tag once, in order', async (t) => {
  t.same(templateTags('{{B}} [[B]] {{A}} {{ B }} [[B]]'), [
    { kind: 'variable', name: 'B' },
    { kind: 'formula', name: 'B' },
    { kind: 'variable', name: 'A' },
  ])
})

t.test('findUndefinedTags reports unknown variables and formulas once each', async (t) => {
  const known = { variables: new Set(['Name', 'Age']), formulas: new Set(['Total']) }
  t.same(findUndefinedTags('Hi {{Name}}, [[Total]] for {{Age}}.', known), [])
  t.same(findUndefinedTags('{{Nmae}} and [[Totl]] and {{Nmae}} and [[Name]] and {{Total}}', known), [
    { kind: 'variable', name: 'Nmae' },
    { kind: 'formula', name: 'Totl' },
    { kind: 'formula', name: 'Name' },
    { kind: 'variable', name: 'Total' },
  ])
  t.same(findUndefinedTags('{{name}}', known), [{ kind: 'variable', name: 'name' }], 'names are case-sensitive')
  t.same(findUndefinedTags('{{not a tag}}', known), [], 'text that is not a tag is not reported')
})

t.test('template, types and format bundle for the browser, without the content renderer', async (t) => {
  const { build } = await import('esbuild')
  for (const entry of ['template', 'types', 'format']) {
    const result = await build({
      entryPoints: [`src/engine/${entry}/index.ts`],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    })
    const inputs = Object.keys(result.metafile.inputs)
    t.same(result.errors, [], `${entry} bundles for the browser (no Node built-ins)`)
    t.notOk(inputs.some((input) => /markdown-it|sanitize-html|htmlparser2|postcss|engine\/content/.test(input)), `${entry} leaves content rendering out`)
  }
})
