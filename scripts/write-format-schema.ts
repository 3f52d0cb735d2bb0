// `npm run schema:format`: writes schemas/advice-set-1.json, the JSON Schema of the advice-set@1 file format, from
// the TypeBox types the importer validates with (services/library/portable-format.ts). The copy in the repository
// is for readers and outside tools; a unit test fails when it no longer matches the types.
import { writeFileSync } from 'node:fs'
import { formatJsonSchema } from '../src/services/library/portable-format.ts'

const target = new URL('../schemas/advice-set-1.json', import.meta.url)
writeFileSync(target, formatJsonSchema())
console.log(`wrote ${target.pathname}`)
