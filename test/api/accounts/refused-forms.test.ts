// Issue 25: forms that would be refused on save are refused before they are shown (403 with the reason and what to do),
// so nobody types into a form and loses it: a viewer on a set's scenario forms and other edit pages, an author on a
// colleague's profile form; and the activity log offers Restore on a keyword map only to whoever may restore it.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { retirementSet } from '../../helpers/scenarios.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const owner = await createOwner(db, { name: 'Pension Co' })
const adminUser = await createUser(db, { ownerId: owner, role: 'admin', name: 'Ann Admin' })
const authorUser = await createUser(db, { ownerId: owner, role: 'author', name: 'Al Author' })
const colleague = await createUser(db, { ownerId: owner, role: 'author', name: 'Cal Colleague' })
const admin = await signedInAgent(app, adminUser)
const author = await signedInAgent(app, authorUser)
const viewer = await signedInAgent(app, await createUser(db, { ownerId: owner, role: 'viewer', name: 'Vi Viewer' }))
const { set } = await retirementSet(db, owner)
const scenario = (await author.api('POST', '/api/advicescenario', { adviceSetId: set.id, name: 'Young saver', inputs: { Age: 30 } })).json().data
const VIEWER_REASON = 'ask an admin of your team to make you an author.'

t.test('a viewer is refused the scenario forms before they are shown, with the reason', async (t) => {
  for (const url of [`/adviceset/${set.id}/advicescenario/new`, `/adviceset/${set.id}/advicescenario/${scenario.id}/edit`, `/adviceset/${set.id}/advicescenario/${scenario.id}/copy`, `/adviceset/${set.id}/advicescenario/${scenario.id}/delete`]) {
    const page = await viewer.get(url)
    t.equal(page.statusCode, 403, url)
    t.match(page.body, `Viewers cannot change this advice set’s scenarios: ${VIEWER_REASON}`, `${url} says why and what to do`)
    t.notMatch(page.body, /<form method="post" action="\/adviceset\/\d+\/advicescenario\//, `${url} shows no form`)
    t.equal((await author.get(url)).statusCode, 200, `${url} is the author's to use`)
  }
  const index = await viewer.get(`/adviceset/${set.id}/advicescenario/index`)
  t.equal(index.statusCode, 200, 'the viewer still reads the scenarios')
  t.notMatch(index.body, 'New scenario', 'and is not offered a new one')
})

t.test('a viewer is refused other edit pages with the same voice', async (t) => {
  for (const url of [`/adviceset/${set.id}/edit`, `/adviceset/${set.id}/rule/new`]) {
    const page = await viewer.get(url)
    t.equal(page.statusCode, 403, url)
    t.match(page.body, `Viewers cannot change this advice set: ${VIEWER_REASON}`, url)
  }
})

t.test('an author is refused a colleague\'s profile form; their own and the admin\'s stay open', async (t) => {
  const page = await author.get(`/profile/edit?id=${colleague.id}`)
  t.equal(page.statusCode, 403)
  t.match(page.body, 'You can only edit your own profile: an admin of your team edits colleagues’ profiles.')
  t.notMatch(page.body, 'name="title"', 'no form to type into')
  t.equal((await author.get('/profile/edit')).statusCode, 200, 'their own')
  t.equal((await admin.get(`/profile/edit?id=${colleague.id}`)).statusCode, 200, 'the team\'s admin edits colleagues')
  t.notMatch((await author.get(`/profile?id=${colleague.id}`)).body, `/profile/edit?id=${colleague.id}`, 'the profile page offers no edit link')
})

t.test('the activity log offers Restore on a keyword map only to its admins', async (t) => {
  const made = await admin.api('POST', '/api/keywordmap', { name: 'Retiring', phrases: ['when can I retire'], adviceSetId: set.id })
  t.equal(made.statusCode, 201)
  const entryOf = (body: string) => {
    const items = body.split('<li class="activity-item">').slice(1)
    return items.find((item) => item.includes('keyword map') && item.includes('Retiring'))
  }
  const asAuthor = entryOf((await author.get('/activity')).body)
  t.ok(asAuthor, 'the author sees the entry')
  t.notMatch(asAuthor, 'Restore', 'but is not offered Restore, which would be refused')
  const asAdmin = entryOf((await admin.get('/activity')).body)
  t.match(asAdmin, '>Restore</button>', 'the admin is offered it')
  const apiItem = (await author.api('GET', '/api/activity/index?entityType=keywordmap')).json().data.items[0]
  t.equal(apiItem.canRestore, false, 'the API says the same')
})
