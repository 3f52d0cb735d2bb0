// Managing team members (issue 25 major 1): role change, deactivate and reactivate, resend and cancel a pending
// invitation, the last-admin guard, the activity log; and the invitation's wording and set-up sign-in (wording items).
import t from 'tap'
import { and, desc, eq, isNull } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { activity, passwordTokens, sessions, users } from '../../../src/db/schema/index.ts'

const ctx = await buildTestApp(t)
const { app, database, outbox } = ctx
const db = database.db
const provider = await createOwner(db, { id: 'TF', name: 'Advice Studio' })
const providerAdmin = await createUser(db, { ownerId: provider, role: 'admin', name: 'Pat Provider' })
const acme = await createOwner(db, { name: 'Acme Pensions' })
const ann = await createUser(db, { ownerId: acme, role: 'admin', name: 'Ann Acme' })
const art = await createUser(db, { ownerId: acme, role: 'author', name: 'Art Acme' })
const vic = await createUser(db, { ownerId: acme, role: 'viewer', name: 'Vic Acme' })
const globex = await createOwner(db, { name: 'Globex' })
const gina = await createUser(db, { ownerId: globex, role: 'admin', name: 'Gina Globex' })

async function signedIn(user: { email: string; password: string }) {
  const agent = new Agent(app)
  await agent.signIn(user.email, user.password)
  return agent
}

async function rowOf(id: number) {
  const [row] = await db.select().from(users).where(eq(users.id, id))
  return row!
}

async function lastEntryOn(userId: number) {
  const [row] = await db.select().from(activity).where(and(eq(activity.entityType, 'user'), eq(activity.entityId, String(userId))))
    .orderBy(desc(activity.id)).limit(1)
  return row!
}

function mailsTo(email: string) {
  return outbox().filter((m) => JSON.stringify(m.to).includes(email))
}

async function invite(agent: Agent, form: { name: string; email: string; role: string }) {
  await agent.get('/user/new')
  return agent.postForm('/user/new', form)
}

t.test('an admin changes a member’s role; the log names the member; a bad role is named', async (t) => {
  const admin = await signedIn(ann)
  const res = await admin.api('PUT', `/api/user/${art.id}/role`, { role: 'viewer' })
  t.equal(res.statusCode, 200)
  t.equal(res.json().data.user.role, 'viewer')
  t.equal((await rowOf(art.id)).role, 'viewer')
  const entry = await lastEntryOn(art.id)
  t.same([entry.actorId, entry.before, entry.after], [ann.id, { name: 'Art Acme', role: 'author' }, { name: 'Art Acme', role: 'viewer' }])
  const bad = await admin.api('PUT', `/api/user/${art.id}/role`, { role: 'owner' })
  t.equal(bad.statusCode, 400)
  t.match(bad.json().error.message, /Role/)

  // The team page's form does the same and says so.
  const page = await admin.get('/user/team')
  t.match(page.body, `action="/user/team/${art.id}/role"`)
  const back = await admin.postForm(`/user/team/${art.id}/role`, { role: 'author', next: '/user/team' })
  t.equal(back.statusCode, 303)
  t.equal(back.headers.location, '/user/team')
  t.match((await admin.get('/user/team')).body, 'Art Acme is now an author.')
  t.equal((await rowOf(art.id)).role, 'author')
})

t.test('the last active admin can be neither demoted nor deactivated', async (t) => {
  const admin = await signedIn(ann)
  const demote = await admin.api('PUT', `/api/user/${ann.id}/role`, { role: 'author' })
  t.equal(demote.statusCode, 409)
  t.equal(demote.json().error.message, 'Ann Acme is the last admin of Acme Pensions, so they cannot be made an author. Make another member an admin first.')
  t.equal((await rowOf(ann.id)).role, 'admin')
  const pat = await signedIn(providerAdmin)
  const deactivate = await pat.api('POST', `/api/user/${ann.id}/deactivate`)
  t.equal(deactivate.statusCode, 409)
  t.match(deactivate.json().error.message, 'is the last admin of Acme Pensions')
  t.equal((await rowOf(ann.id)).status, 'active')
  const page = await admin.postForm(`/user/team/${ann.id}/role`, { role: 'viewer', next: '/user/team' }, { page: '/user/team' })
  t.equal(page.statusCode, 303)
  const shown = await admin.get('/user/team')
  t.match(shown.body, 'Nothing changed.')
  t.match(shown.body, 'Ann Acme is the last admin of Acme Pensions')
})

t.test('deactivating ends the member’s sessions at once; they cannot sign in; reactivating lets them back', async (t) => {
  const member = await signedIn(art)
  t.equal((await member.get('/user/team')).statusCode, 200)
  const admin = await signedIn(ann)
  const res = await admin.api('POST', `/api/user/${art.id}/deactivate`)
  t.equal(res.statusCode, 200)
  t.equal(res.json().data.user.status, 'deactivated')
  t.same(await db.select().from(sessions).where(eq(sessions.userId, art.id)), [], 'their sessions are gone')
  const next = await member.get('/user/team')
  t.equal(next.statusCode, 302)
  t.match(next.headers.location, /^\/login/)
  t.equal((await member.api('GET', `/api/user/${art.id}`)).statusCode, 401)

  const again = new Agent(app)
  await again.get('/login')
  const refused = await again.postForm('/login', { email: art.email, password: art.password })
  t.equal(refused.statusCode, 403)
  t.match(refused.body, 'Your account at Acme Pensions is deactivated, so you cannot sign in. Ask an admin of your team to reactivate it.')
  const wrong = await again.postForm('/login', { email: art.email, password: 'not-the-password' })
  t.equal(wrong.statusCode, 401, 'a wrong password says nothing about the account')
  t.notMatch(wrong.body, 'deactivated')

  const entry = await lastEntryOn(art.id)
  t.same([entry.before, entry.after], [{ name: 'Art Acme', status: 'active' }, { name: 'Art Acme', status: 'deactivated' }])
  const team = await admin.get('/user/team')
  t.match(team.body, `action="/user/team/${art.id}/reactivate"`)

  const back = await admin.api('POST', `/api/user/${art.id}/reactivate`)
  t.equal(back.statusCode, 200)
  t.equal(back.json().data.user.status, 'active')
  await new Agent(app).signIn(art.email, art.password)
})

t.test('admins cannot deactivate themselves', async (t) => {
  const pat = await signedIn(providerAdmin)
  const other = await createUser(db, { ownerId: provider, role: 'admin', name: 'Pia Provider' })
  const self = await pat.api('POST', `/api/user/${providerAdmin.id}/deactivate`)
  t.equal(self.statusCode, 409)
  t.equal(self.json().error.message, 'You cannot deactivate yourself: ask another admin of your team.')
  t.equal((await rowOf(other.id)).status, 'active')
})

t.test('the invitation mail names the team and who invited; the set-up link signs the new member in', async (t) => {
  const admin = await signedIn(ann)
  t.equal((await invite(admin, { name: 'Ida Invited', email: 'ida@example.test', role: 'author' })).statusCode, 303)
  const [mail] = mailsTo('ida@example.test')
  t.equal(mail!.subject, 'Ann Acme invited you to Acme Pensions on Advice Studio')
  t.match(mail!.text, 'Ann Acme invited you to join Acme Pensions on Advice Studio as an author.')
  const ida = (await db.select().from(users).where(eq(users.email, 'ida@example.test')))[0]!
  t.equal(ida.status, 'invited')

  const guest = new Agent(app)
  const link = new URL(mail!.link!).pathname
  await guest.get(link)
  const set = await guest.postForm(link, { password: 'ida-secret-pw-1', confirm: 'ida-secret-pw-1' })
  t.equal(set.statusCode, 303)
  t.equal(set.headers.location, '/')
  const home = await guest.get('/user/team')
  t.equal(home.statusCode, 200, 'signed in without a second step')
  t.match(home.body, 'Welcome to Advice Studio, Ida Invited.')
  t.equal((await rowOf(ida.id)).status, 'active')
})

t.test('a password reset link signs the user in too', async (t) => {
  const user = await createUser(db, { ownerId: acme, role: 'viewer', name: 'Rex Reset' })
  const a = new Agent(app)
  await a.get('/password/forgot')
  await a.postForm('/password/forgot', { email: user.email })
  const path = new URL(mailsTo(user.email).pop()!.link!).pathname
  await a.get(path)
  const set = await a.postForm(path, { password: 'rex-secret-pw-1', confirm: 'rex-secret-pw-1' })
  t.equal(set.statusCode, 303)
  t.equal((await a.get('/profile')).statusCode, 200)
})

t.test('resending an invitation mails a new link; the old one stops working', async (t) => {
  const admin = await signedIn(ann)
  await invite(admin, { name: 'Rae Resend', email: 'rae@example.test', role: 'viewer' })
  const rae = (await db.select().from(users).where(eq(users.email, 'rae@example.test')))[0]!
  const first = new URL(mailsTo('rae@example.test')[0]!.link!).pathname
  const team = await admin.get('/user/team')
  t.match(team.body, 'Pending invitations')
  t.match(team.body, `action="/user/team/${rae.id}/resend-invitation"`)
  const row = team.body.slice(team.body.indexOf(`<tr data-member="${rae.id}"`))
  t.match(row.slice(0, row.indexOf('</tr>')), /<time datetime="\d{4}-/, 'when the invitation went out is shown')
  const res = await admin.postForm(`/user/team/${rae.id}/resend-invitation`, { next: '/user/team#invitations' })
  t.equal(res.statusCode, 303)
  t.equal(res.headers.location, '/user/team#invitations')
  t.match((await admin.get('/user/team')).body, 'A new invitation is on its way to rae@example.test.')
  const mails = mailsTo('rae@example.test')
  t.equal(mails.length, 2)
  const second = new URL(mails[1]!.link!).pathname
  t.not(second, first)
  const guest = new Agent(app)
  t.equal((await guest.postForm(first, { password: 'rae-secret-pw-1', confirm: 'rae-secret-pw-1' }, { page: '/login' })).statusCode, 400, 'the old link is revoked')
  t.equal((await guest.postForm(second, { password: 'rae-secret-pw-1', confirm: 'rae-secret-pw-1' })).statusCode, 303)
  const entry = await lastEntryOn(rae.id)
  t.equal(entry.actorId, rae.id, 'the set-up is the latest entry')

  const accepted = await admin.api('POST', `/api/user/${rae.id}/resend-invitation`)
  t.equal(accepted.statusCode, 409)
  t.equal(accepted.json().error.message, 'Rae Resend has already accepted the invitation: there is nothing to send or cancel.')
})

t.test('re-inviting a pending address sends it again instead of “already exists”', async (t) => {
  const admin = await signedIn(ann)
  await invite(admin, { name: 'Pia Pending', email: 'pia@example.test', role: 'viewer' })
  const again = await invite(admin, { name: 'Pia Pending', email: 'pia@example.test', role: 'author' })
  t.equal(again.statusCode, 303)
  const rows = await db.select().from(users).where(eq(users.email, 'pia@example.test'))
  t.equal(rows.length, 1)
  t.equal(rows[0]!.role, 'author')
  t.equal(mailsTo('pia@example.test').length, 2)
  const open = await db.select().from(passwordTokens).where(and(eq(passwordTokens.userId, rows[0]!.id), isNull(passwordTokens.usedAt)))
  t.equal(open.length, 1, 'only the newest link works')
})

t.test('cancelling an invitation revokes its link and frees the address for another invitation', async (t) => {
  const admin = await signedIn(ann)
  await invite(admin, { name: 'Cal Cancel', email: 'cal@example.test', role: 'author' })
  const cal = (await db.select().from(users).where(eq(users.email, 'cal@example.test')))[0]!
  const link = new URL(mailsTo('cal@example.test')[0]!.link!).pathname
  const res = await admin.api('POST', `/api/user/${cal.id}/cancel-invitation`)
  t.equal(res.statusCode, 200)
  t.equal(res.json().data.user.status, 'cancelled')
  t.notMatch((await admin.get('/user/team')).body, `data-member="${cal.id}"`, 'no longer listed')
  t.equal((await new Agent(app).postForm(link, { password: 'cal-secret-pw-1', confirm: 'cal-secret-pw-1' }, { page: '/login' })).statusCode, 400)
  const entry = await lastEntryOn(cal.id)
  t.same(entry.after, { name: 'Cal Cancel', status: 'cancelled' })

  // Another team may now invite the address.
  const other = await signedIn(gina)
  const invited = await invite(other, { name: 'Cal Elsewhere', email: 'cal@example.test', role: 'viewer' })
  t.equal(invited.statusCode, 303)
  const row = await rowOf(cal.id)
  t.same([row.ownerId, row.status, row.name], [globex, 'invited', 'Cal Elsewhere'])
})

t.test('an author or a viewer cannot manage members (403); another team’s admin finds no one (404)', async (t) => {
  const target = await createUser(db, { ownerId: acme, role: 'author', name: 'Tim Target' })
  for (const who of [art, vic]) {
    const agent = await signedIn(who)
    t.equal((await agent.api('PUT', `/api/user/${target.id}/role`, { role: 'viewer' })).statusCode, 403)
    const refused = await agent.api('POST', `/api/user/${target.id}/deactivate`)
    t.equal(refused.statusCode, 403)
    t.equal(refused.json().error.message, 'Only an admin of the team manages its members: ask one of your team’s admins.')
    t.notMatch((await agent.get('/user/team')).body, '/deactivate"', 'no actions are offered')
  }
  const other = await signedIn(gina)
  for (const path of ['deactivate', 'reactivate', 'resend-invitation', 'cancel-invitation']) {
    t.equal((await other.api('POST', `/api/user/${target.id}/${path}`)).statusCode, 404, path)
  }
  t.equal((await other.api('PUT', `/api/user/${target.id}/role`, { role: 'admin' })).statusCode, 404)
  const row = await rowOf(target.id)
  t.same([row.role, row.status], ['author', 'active'], 'nothing changed')
  const pat = await signedIn(providerAdmin)
  t.equal((await pat.api('PUT', `/api/user/${target.id}/role`, { role: 'viewer' })).statusCode, 200, 'provider admins can')
  const list = await pat.get('/admin/users')
  t.match(list.body, `action="/user/team/${target.id}/deactivate"`)
})
