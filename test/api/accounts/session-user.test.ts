// A signed-in request reads its session and its user in one statement (plugins/session.ts hands the user to the auth
// hook), and the user it acts as is still the one the session's data names.
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { buildApp } from '../../../src/app.ts'
import { loadConfig } from '../../../src/config.ts'
import { openDatabase } from '../../../src/db/client.ts'
import { sessions, users } from '../../../src/db/schema/index.ts'
import { SessionUsers } from '../../../src/services/accounts/session-store.ts'
import type { UserRow } from '../../../src/db/queries/users.ts'
import { buildTestApp } from '../../helpers/app.ts'
import { sessionAgent } from '../../helpers/agent.ts'
import { openTestDatabase, testDriver } from '../../helpers/database.ts'
import { createUser } from '../../helpers/factories.ts'

t.test('the user handed over is taken once, by its session id', async (t) => {
  const handed = new SessionUsers()
  const ada = { id: 7 } as UserRow
  handed.put('sid-a', ada)
  t.equal(handed.take('sid-b'), undefined, 'another session takes nothing')
  t.equal(handed.take('sid-a'), ada, 'its own session takes it')
  t.equal(handed.take('sid-a'), undefined, 'and only once')
})

t.test('the session row names another user than its data: the request acts as the data says', async (t) => {
  const { app, database } = await buildTestApp(t)
  const ada = await createUser(database.db, { name: 'Ada Sessiondata' })
  const bob = await createUser(database.db, { name: 'Bob Columnonly', ownerId: ada.ownerId })
  const agent = await sessionAgent(app, ada)
  t.match((await agent.get('/profile')).body, 'Ada Sessiondata')
  // The column is a copy kept for ending a user's sessions; the data is what the session plugin restores.
  await database.db.update(sessions).set({ userId: bob.id }).where(eq(sessions.userId, ada.id))
  const profile = await agent.get('/profile')
  t.equal(profile.statusCode, 200)
  t.match(profile.body, 'Ada Sessiondata')
  t.notMatch(profile.body, 'Bob Columnonly')
})

t.test('a user deactivated since the last request is signed out at the next one', async (t) => {
  const { app, database } = await buildTestApp(t)
  const ada = await createUser(database.db, { name: 'Ada Deactivated' })
  const agent = await sessionAgent(app, ada)
  t.equal((await agent.get('/profile')).statusCode, 200)
  await database.db.update(users).set({ status: 'deactivated' }).where(eq(users.id, ada.id))
  const after = await agent.get('/profile')
  t.equal(after.statusCode, 302, 'sent to sign in')
  t.match(after.headers.location, /^\/login/)
})

t.test('one statement reads the session and its user', { skip: testDriver() === 'postgres' ? false : 'statements are counted on PostgreSQL' }, async (t) => {
  const testDb = await openTestDatabase()
  t.teardown(() => testDb.close())
  const sent: string[] = []
  const database = await openDatabase({ kind: 'postgres', url: testDb.url!, onQuery: (statement) => sent.push(statement) })
  t.teardown(() => database.close())
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'session-user-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const app = await buildApp({ config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), db: database.db, logger: false })
  t.teardown(() => app.close())
  const ada = await createUser(database.db, { name: 'Ada Counted' })
  const agent = await sessionAgent(app, ada)
  sent.length = 0
  const profile = await agent.get('/profile')
  t.equal(profile.statusCode, 200)
  t.match(profile.body, 'Ada Counted')
  const readsSession = sent.filter((s) => /from "sessions"/.test(s))
  // The statement the auth hook sent for the user before (findUserById), to the letter.
  const userById = database.db.select().from(users).where(eq(users.id, ada.id)).limit(1).toSQL().sql
  const readsUserAlone = sent.filter((s) => s === userById)
  t.equal(readsSession.length, 1, 'the session is read once')
  t.match(readsSession[0], /left join "users"/, 'with its user')
  t.same(readsUserAlone, [], 'and the user is not read again on its own')
})
