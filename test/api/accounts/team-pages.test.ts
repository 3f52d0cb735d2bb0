// Issue 29: a big team's page shows its members and its pending invitations by name, 100 at a time, with a link to the
// next ones (keyset: each member is on exactly one page); a bad cursor is a 400 naming it.
import t from 'tap'
import { sql } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'

const ctx = await buildTestApp(t)
const db = ctx.database.db
const owner = await createOwner(db, { name: 'Big Team' })
const admin = await createUser(db, { ownerId: owner, role: 'admin', name: 'Aaron Admin' })
// 149 more members (some deactivated) and 120 pending invitations; a cancelled one is never shown.
await db.execute(sql`insert into users (owner_id, email, name, role, status)
  select ${owner}, 'm' || g || '@big.example', 'Member ' || lpad(g::text, 3, '0'), 'author', (case when g % 10 = 0 then 'deactivated' else 'active' end)::user_status
  from generate_series(1, 149) g`)
await db.execute(sql`insert into users (owner_id, email, name, role, status)
  select ${owner}, 'i' || g || '@big.example', 'Invitee ' || lpad(g::text, 3, '0'), 'viewer', 'invited' from generate_series(1, 120) g`)
await db.execute(sql`insert into users (owner_id, email, name, role, status) values (${owner}, 'gone@big.example', 'Cancelled Person', 'viewer', 'cancelled')`)

const agent = new Agent(ctx.app)
await agent.signIn(admin.email, admin.password)
const membersOf = (html: string, section: 'members' | 'invitations') => {
  const part = section === 'members' ? html.slice(0, html.indexOf('id="invitations"')) : html.slice(html.indexOf('id="invitations"'))
  return [...part.matchAll(/<tr data-member="(\d+)"/g)].map((m) => Number(m[1]))
}

t.test('members: 100 a page by name, then the rest; each once', async (t) => {
  const first = await agent.get('/user/team')
  t.equal(first.statusCode, 200)
  const page1 = membersOf(first.body, 'members')
  t.equal(page1.length, 100, 'a hundred members on the first page')
  t.match(first.body, /Aaron Admin/, 'by name: the admin first')
  const next = /href="(\/user\/team\?after=\d+)" rel="next" data-next-members/.exec(first.body)?.[1]
  t.ok(next, 'a link to the next members')
  const second = await agent.get(next!)
  const page2 = membersOf(second.body, 'members')
  t.equal(page2.length, 50, 'the other fifty')
  t.notMatch(second.body, /data-next-members/, 'and no further link')
  t.match(second.body, /<a href="\/user\/team">First members<\/a>/, 'a link back to the start')
  t.equal(new Set([...page1, ...page2]).size, 150, 'every member exactly once')
  t.notMatch(first.body + second.body, /Cancelled Person/, 'a cancelled invitation is on neither')
})

t.test('invitations: 100 a page, then the rest', async (t) => {
  const first = await agent.get('/user/team')
  t.equal(membersOf(first.body, 'invitations').length, 100)
  const next = /href="(\/user\/team\?invitedAfter=\d+)#invitations" rel="next" data-next-invitations/.exec(first.body)?.[1]
  t.ok(next, 'a link to the next invitations')
  const rest = membersOf((await agent.get(next!)).body, 'invitations')
  t.equal(rest.length, 20)
  t.equal(new Set([...membersOf(first.body, 'invitations'), ...rest]).size, 120, 'every invitation exactly once')
})

t.test('a bad cursor names its field', async (t) => {
  const res = await agent.get('/user/team?after=abc')
  t.equal(res.statusCode, 400)
  t.match(res.body, /after/)
})
