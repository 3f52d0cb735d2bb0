// What every signed-in page's layout carries for its islands: the search index the header box asks.
import fs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import { brotliDecompressSync } from 'node:zlib'
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

t.test('templates and their includes are read from disk once, not on every render', async (t) => {
  const { app, database } = await buildTestApp(t)
  const user = await createUser(database.db)
  const agent = new Agent(app)
  await agent.signIn(user.email, user.password)
  t.equal((await agent.get('/library')).statusCode, 200, 'a first render reads what it needs')
  const read = fs.readFileSync
  const templatesRead: string[] = []
  fs.readFileSync = ((file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
    if (String(file).endsWith('.eta')) templatesRead.push(String(file))
    return (read as (...args: unknown[]) => unknown)(file, ...rest)
  }) as typeof fs.readFileSync
  syncBuiltinESMExports()
  t.teardown(() => {
    fs.readFileSync = read
    syncBuiltinESMExports()
  })
  t.equal((await agent.get('/library')).statusCode, 200)
  t.same(templatesRead, [], 'the second render of the page and its partials reads no template')
})

t.test('pages are sent compressed to clients that accept it', async (t) => {
  const { app, database } = await buildTestApp(t)
  const user = await createUser(database.db)
  const agent = new Agent(app)
  await agent.signIn(user.email, user.password)
  const plain = await agent.request({ method: 'GET', url: '/library' })
  t.equal(plain.headers['content-encoding'], undefined, 'not without Accept-Encoding')
  const compressed = await agent.request({ method: 'GET', url: '/library', headers: { 'accept-encoding': 'br, gzip' } })
  t.equal(compressed.statusCode, 200)
  t.equal(compressed.headers['content-encoding'], 'br')
  t.ok(compressed.rawPayload.length * 3 < plain.rawPayload.length, `${plain.rawPayload.length} bytes sent as ${compressed.rawPayload.length}`)
  const withoutTokens = (html: string) => html.replace(/(name="csrf-token" content|name="_csrf" value)="[^"]*"/g, '$1=""')
  t.equal(withoutTokens(brotliDecompressSync(compressed.rawPayload).toString('utf8')), withoutTokens(plain.body), 'the same page')
  const gzipped = await agent.request({ method: 'GET', url: '/library', headers: { 'accept-encoding': 'gzip' } })
  t.equal(gzipped.headers['content-encoding'], 'gzip')
})
