// Issue 25: teams are named, never shown by their owner id ("o096c8e7cd461"): the tags Team column, a tag's edit page
// ("Tag of the team …"), /admin/users and /admin/support.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { adminCast } from '../../helpers/team.ts'
import { tags } from '../../../src/db/schema/index.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const { providerAdmin, acme, acmeAdmin } = await adminCast(db)
await createAdviceSet(db, { ownerId: acme, name: 'Acme pensions' })
const [acmeTag] = await db.insert(tags).values({ ownerId: acme, label: 'Acme only', slug: 'acme-only', type: 'label' }).returning()
const provider = await signedInAgent(app, providerAdmin)

t.test('tags: the Team column and the edit page name the team', async (t) => {
  const list = await provider.get('/admin/tag')
  t.equal(list.statusCode, 200)
  const row = new RegExp(`<tr[^>]*>(?:(?!</tr>)[\\s\\S])*?Acme only(?:(?!</tr>)[\\s\\S])*</tr>`).exec(list.body)?.[0] ?? ''
  t.match(row, '<td>Acme</td>', 'the team by name')
  t.notMatch(list.body, acme, 'no owner id on the page')
  const edit = await provider.get(`/admin/tag/${acmeTag!.id}/edit`)
  t.match(edit.body, 'Tag of the team Acme')
  t.notMatch(edit.body, acme)
  const own = (await (await signedInAgent(app, acmeAdmin)).get('/admin/tag')).body
  t.notMatch(own.slice(own.indexOf('<main'), own.indexOf('</main>')), acme, 'nor for the team\'s own admin')
})

t.test('/admin/users and /admin/support name teams without their ids', async (t) => {
  for (const url of ['/admin/users', '/admin/support?q=Acme']) {
    const page = await provider.get(url)
    t.equal(page.statusCode, 200, url)
    t.match(page.body, 'Acme', `${url} names the team`)
    t.notMatch(page.body, `(${acme})`, `${url} shows no owner id`)
  }
})
