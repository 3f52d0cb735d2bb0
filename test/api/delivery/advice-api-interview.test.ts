// Issue 7 acceptance, end to end: a multi-question set published through the workflow (submit, approve by another
// user, publish) is driven through the Advice API as a partner would, answering each currentFocus until the
// advice is complete; the final advice is compared to the expected one.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { createApiKey } from '../../helpers/api-keys.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createVersion } from '../../../src/services/publishing/versions.ts'
import { transitionVersion } from '../../../src/services/publishing/workflow.ts'
import { buildPensionSet, createPensionVariables, partnerCall } from './advice-api-setup.ts'

const ctx = await buildTestApp(t)
const db = ctx.database.db
const ownerId = await createOwner(db)
const author = await createUser(db, { ownerId, role: 'author' })
const admin = await createUser(db, { ownerId, role: 'admin' })
const actorOf = (u: typeof author) => ({ userId: u.id, ownerId, role: u.role, impersonatorId: null })
await createPensionVariables(db, ownerId)
const { set } = await buildPensionSet(db, ownerId)

const draft = await createVersion(ctx.app.deps, actorOf(author), { adviceSetId: set.id, notes: 'First release' })
await transitionVersion(ctx.app.deps, actorOf(author), draft.id, 'submit')
await transitionVersion(ctx.app.deps, actorOf(admin), draft.id, 'approve')
await transitionVersion(ctx.app.deps, actorOf(admin), draft.id, 'publish')
const { secret } = await createApiKey(db, { ownerId })
const call = partnerCall(ctx, secret)

interface Focus { variable: string; inputType: string; options?: string[] }
interface Item { headline: string; text: string }
interface Data { currentFocus: Focus | null; inputRequests: Array<{ variable: string; valueFormatted: string }>; advice: Item[]; assumptions: Item[]; examples: Item[]; errors: unknown[] }

/** Answers whatever the API asks, as the partner's form would send it (text from an input, a picked option). */
async function interview(person: Record<string, string>, accept: string) {
  const answers: Record<string, string> = {}
  const asked: string[] = []
  for (let step = 0; step < 10; step++) {
    const res = await call({ method: 'POST', url: `/api/advice/${set.id}`, accept, body: { inputs: answers } })
    if (res.statusCode !== 200) throw new Error(`step ${step}: ${res.statusCode} ${res.body}`)
    const data = res.json().data as Data
    if (data.currentFocus === null) return { asked, data }
    const { variable, options } = data.currentFocus
    asked.push(variable)
    if (options) t.ok(options.includes(person[variable]!), `${variable}: the answer is one of the options offered`)
    answers[variable] = person[variable]!
  }
  throw new Error('the interview did not end within 10 questions')
}

const headlines = (items: Item[]) => items.map((i) => i.headline)

t.test('an employed person with a high income is asked four questions and gets the pension advice', async (t) => {
  const { asked, data } = await interview({ Age: '40', Employed: 'yes', Income: '$60,000', Region: 'North' }, 'application/json')
  t.same(asked, ['Age', 'Employed', 'Income', 'Region'], 'each question once, in order')
  t.same(data.inputRequests.map((a) => `${a.variable}=${a.valueFormatted}`), ['Age=40', 'Employed=Yes', 'Income=60,000', 'Region=North'])
  t.same(data.advice, [{ ...data.advice[0], headline: 'Max out your pension', text: 'With 60,000 a year at 40, see the guide.' }])
  t.same(headlines(data.assumptions), ['Rules of North'])
  t.same(data.examples.map((i) => i.text), ['Ten percent of 60,000 is 6,000.'])
  t.same(data.errors, [], 'complete advice has no errors')
})

t.test('someone without a job is not asked their income and gets other advice', async (t) => {
  const { asked, data } = await interview({ Age: '67', Employed: 'no', Region: 'South' }, 'application/vnd.advicestudio.json+markdown')
  t.same(asked, ['Age', 'Employed', 'Region'])
  t.same(headlines(data.advice), ['Look into benefits'])
  t.same(headlines(data.assumptions), ['Rules of South'])
})

t.test('a minor stops after the first question', async (t) => {
  const { asked, data } = await interview({ Age: '15', Region: 'North' }, 'application/json')
  t.same(asked, ['Age', 'Region'], 'the Profile rule exits; the Place rule still asks')
  t.same(data.advice.map((i) => i.text), ['At 15, come back when you are 18.'])
})
