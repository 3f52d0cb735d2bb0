// Issue 28: an advice set exported as an advice-set@1 document: keys and names instead of ids, canonical bytes, the
// working draft or a version as published, only for the set's own team; the JSON Schema served beside it.
import t from 'tap'
import { Compile } from 'typebox/compile'
import { buildTestApp } from '../../helpers/app.ts'
import { keywordMapTeams } from '../../helpers/keyword-maps.ts'
import { AdviceSetDocument } from '../../../src/services/library/portable-format.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { admin, author, viewer, strangerAdmin, providerAdmin, set } = await keywordMapTeams(app, db)
const validator = Compile(AdviceSetDocument)

t.test('the working draft as a document', async (t) => {
  const res = await author.api('GET', `/api/adviceset/${set.id}/export`)
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-disposition'], /attachment; filename="acme-pensions.json"/)
  const doc = JSON.parse(res.body)
  t.ok(validator.Check(doc), 'valid against the format')
  console.log(res.body.slice(0, 3000))
})
