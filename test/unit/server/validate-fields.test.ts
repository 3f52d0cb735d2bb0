// checkFields: every field is checked and all refusals are told together; one refusal keeps its own kind (a name
// taken stays a 409); any other failure stops at once.
import t from 'tap'
import { checkFields, checkSentFields } from '../../../src/services/validate.ts'
import { ConflictError, ValidationError } from '../../../src/services/errors.ts'

const refuse = (field: string, message: string) => () => { throw new ValidationError(field, message) }

t.test('values by name when every check passes', async (t) => {
  t.same(await checkFields({ name: () => 'Key', rateLimit: async () => 60 }), { name: 'Key', rateLimit: 60 })
})

t.test('several refusals: one ValidationError naming each field, in order', async (t) => {
  const error = await checkFields({ name: () => 'Key', allowedOrigins: refuse('allowedOrigins', 'Bad origin.'), rateLimit: refuse('rateLimit', 'Bad limit.') })
    .then(() => null, (e: unknown) => e)
  t.ok(error instanceof ValidationError)
  const refusal = error as ValidationError
  t.equal(refusal.field, 'allowedOrigins')
  t.equal(refusal.message, 'Bad origin. Bad limit.')
  t.same(refusal.fields, [{ field: 'allowedOrigins', message: 'Bad origin.' }, { field: 'rateLimit', message: 'Bad limit.' }])
  t.same(refusal.details, { field: 'allowedOrigins', fields: refusal.fields })
})

t.test('one refusal is thrown as it is: a name taken stays a conflict', async (t) => {
  const taken = new ConflictError('label', 'A tag “Tax” already exists.')
  await t.rejects(checkFields({ label: () => { throw taken }, type: () => 'label' }), taken)
})

t.test('a failure that is not about input stops at once', async (t) => {
  let later = false
  await t.rejects(checkFields({ a: () => { throw new Error('database down') }, b: () => { later = true } }), /database down/)
  t.notOk(later, 'the next check did not run')
})

t.test('checkSentFields checks only the fields sent', async (t) => {
  const sent: { name?: unknown; title?: unknown } = { title: 'About me' }
  t.same(await checkSentFields<{ name: string; title: string }>(sent, { name: refuse('name', 'Name is required.'), title: () => 'About me' }), { title: 'About me' })
})
