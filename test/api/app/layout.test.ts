// What every signed-in page's layout carries for its islands: the search index the header box asks.
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent } from '../../helpers/agent.ts'
import { createUser } from '../../helpers/factories.ts'

t.test('the header search box names the configured index on every page', async (t) => {
  const { app, database } = await buildTestApp(t, { SEARCH_INDEX_PREFIX: 'acme' })
  const user = await createUser(database.db)
  const agent = new Agent(app)
  await agent.signIn(user.email, user.password)
  for (const url of ['/', '/library', '/profile', '/library/search']) {
    const page = await agent.get(url)
    t.match(page.body, /<div class="search-slot" data-island="search-box" data-index-name="acme_updatedAt">/, url)
  }
})
