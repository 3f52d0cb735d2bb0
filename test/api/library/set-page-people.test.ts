// The set page's "Created … by" and "Updated … by": each names its own person, and one read serves both when they
// are the same person.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { adviceSets } from '../../../src/db/schema/index.ts'
import { buildTestApp } from '../../helpers/app.ts'
import { createAdviceSet } from '../../helpers/advice-sets.ts'
import { sessionAgent } from '../../helpers/agent.ts'
import { createUser } from '../../helpers/factories.ts'

const { app, database } = await buildTestApp(t)
const ada = await createUser(database.db, { role: 'author', name: 'Ada Maker' })
const bob = await createUser(database.db, { role: 'author', name: 'Bob Changer', ownerId: ada.ownerId })
const agent = await sessionAgent(app, ada)

async function sidebar(setId: number) {
  const page = await agent.get(`/adviceset/${setId}/show/sidebar`)
  t.equal(page.statusCode, 200)
  return {
    created: /<dt>Created<\/dt>\s*<dd>.*? by ([^<]+)<\/dd>/s.exec(page.body)?.[1],
    updated: /<dt>Updated<\/dt>\s*<dd>.*? by ([^<]+)<\/dd>/s.exec(page.body)?.[1],
  }
}

t.test('made by one person and changed by another', async (t) => {
  const set = await createAdviceSet(database.db, { ownerId: ada.ownerId })
  await database.db.update(adviceSets).set({ createdBy: ada.id, updatedBy: bob.id }).where(eq(adviceSets.id, set.id))
  t.same(await sidebar(set.id), { created: 'Ada Maker', updated: 'Bob Changer' })
})

t.test('made and last changed by the same person', async (t) => {
  const set = await createAdviceSet(database.db, { ownerId: ada.ownerId })
  await database.db.update(adviceSets).set({ createdBy: bob.id, updatedBy: bob.id }).where(eq(adviceSets.id, set.id))
  t.same(await sidebar(set.id), { created: 'Bob Changer', updated: 'Bob Changer' })
})
