// Issue 28: the JSON Schema kept in the repository (schemas/advice-set-1.json) is the one generated from the TypeBox
// types the importer validates with, and the one served at /schemas/advice-set-1.json: one source.
import { readFileSync, realpathSync } from 'node:fs'
import path from 'node:path'
import t from 'tap'
import { formatJsonSchema } from '../../../src/services/library/portable-format.ts'

/** The repository's root: the compiled tests reach the sources through a link (as test/unit/server/layering.test.ts does). */
const ROOT = path.dirname(path.dirname(realpathSync(path.resolve(import.meta.dirname, '../../../src/app.ts'))))

t.test('schemas/advice-set-1.json is generated from the format’s types', async (t) => {
  const kept = readFileSync(path.join(ROOT, 'schemas', 'advice-set-1.json'), 'utf8')
  t.equal(kept, formatJsonSchema(), 'run `npm run schema:format` after changing services/library/portable-format.ts')
  t.match(JSON.parse(kept), { title: 'Advice Studio advice set (advice-set@1)', properties: { format: { const: 'advice-set@1' } }, $defs: { Node: { properties: { children: { items: { $ref: '#/$defs/Node' } } } } } })
})
