// Issue 2 acceptance: sign up → sign in → profile → password change ends other sessions → logout kills the cookie;
// forgot → reset through the mailed link, once, not after 1 h; password rules; CSRF; sign-in failures say nothing.
import t from 'tap'
import { and, eq, isNull } from 'drizzle-orm'
import { buildTestApp } from '../../helpers/app.ts'
import { Agent } from '../../helpers/agent.ts'
import { createUser } from '../../helpers/factories.ts'
import { passwordTokens, sessions, users, activity } from '../../../src/db/schema/index.ts'
import { insertPasswordToken } from '../../../src/db/queries/users.ts'
import { newLinkToken } from '../../../src/services/accounts/passwords.ts'

const ctx = await buildTestApp(t)
const { app, database } = ctx

t.test('sign up, sign in, profile, change password, logout', async (t) => {
  const a = new Agent(app)
  await a.get('/signup')
  const signup = await a.postForm('/signup', { name: 'Grace Hopper', email: 'Grace@Example.test', company: 'Navy', password: 'cobol-rules-1959' })
  t.equal(signup.statusCode, 303)
  t.equal(signup.headers.location, '/')
  const [row] = await database.db.select().from(users).where(eq(users.email, 'grace@example.test'))
  t.ok(row, 'user stored with a lower-cased e-mail')
  t.equal(row!.role, 'admin', 'the person who signs up is admin of the new owner')
  t.match(row!.passwordHash, /^\$argon2id\$/, 'argon2id hash')
  const audits = await database.db.select().from(activity).where(eq(activity.ownerId, row!.ownerId))
  t.same(audits.map((r) => r.entityType).sort(), ['owner', 'user'], 'sign-up audited')

  const home = await a.get('/')
  t.equal(home.statusCode, 200)
  t.match(home.body, '<main data-page="index">')
  t.match(home.body, 'Welcome, Grace Hopper')

  // A second session for the same person (another browser).
  const other = new Agent(app)
  await other.signIn('grace@example.test', 'cobol-rules-1959')
  t.equal((await other.get('/profile')).statusCode, 200)

  const profile = await a.get('/profile')
  t.equal(profile.statusCode, 200)
  t.match(profile.body, 'grace@example.test')

  const change = await a.postForm('/profile/password', { current: 'cobol-rules-1959', password: 'fortran-next-1957', confirm: 'fortran-next-1957' }, { page: '/profile/password' })
  t.equal(change.statusCode, 303)
  t.equal((await a.get('/profile')).statusCode, 200, 'the session that changed the password continues')
  const kicked = await other.get('/profile')
  t.equal(kicked.statusCode, 302, 'the other session was ended')
  t.match(kicked.headers.location, /^\/login/)

  const cookieBefore = a.cookieHeader
  const logout = await a.postForm('/logout', {}, { page: '/profile' })
  t.equal(logout.statusCode, 303)
  const replay = new Agent(app)
  replay.useCookies(cookieBefore)
  const afterLogout = await replay.get('/profile')
  t.equal(afterLogout.statusCode, 302, 'the old cookie no longer signs anyone in')
  const left = await database.db.select().from(sessions).where(eq(sessions.userId, row!.id))
  t.equal(left.length, 0, 'no session rows left for the user')

  const fresh = new Agent(app)
  await fresh.signIn('grace@example.test', 'fortran-next-1957')
  t.equal((await fresh.get('/profile')).statusCode, 200, 'the new password works')
})

t.test('sign-in failures do not say which part was wrong', async (t) => {
  const user = await createUser(database.db)
  const a = new Agent(app, '10.1.0.1')
  await a.get('/login')
  const wrongPassword = await a.postForm('/login', { email: user.email, password: 'not-the-password' })
  const unknownEmail = await a.postForm('/login', { email: 'nobody@example.test', password: 'whatever-123' })
  t.equal(wrongPassword.statusCode, 401)
  t.equal(unknownEmail.statusCode, 401)
  const message = (body: string) => /class="form-error" role="alert">([^<]*)</.exec(body)?.[1]
  t.equal(message(wrongPassword.body), 'The e-mail address or password is not correct.')
  t.equal(message(unknownEmail.body), message(wrongPassword.body))
})

t.test('passwords: too short and too common are refused with the rule named', async (t) => {
  const a = new Agent(app, '10.2.0.1')
  await a.get('/signup')
  const short = await a.postForm('/signup', { name: 'Short', email: 'short@example.test', password: 'ab12c' })
  t.equal(short.statusCode, 400)
  t.match(short.body, 'Password must be at least 6 characters long.')
  t.match(short.body, 'value="short@example.test"', 'typed values are kept')
  const common = await a.postForm('/signup', { name: 'Common', email: 'common@example.test', password: 'password1' })
  t.equal(common.statusCode, 400)
  t.match(common.body, 'Password is too common')
  const stored = await database.db.select().from(users).where(eq(users.email, 'short@example.test'))
  t.equal(stored.length, 0)
})

t.test('forgot → reset through the mailed link; the link works once and not after 1 h', async (t) => {
  const user = await createUser(database.db)
  const a = new Agent(app, '10.3.0.1')
  await a.get('/password/forgot')
  const sent = await a.postForm('/password/forgot', { email: user.email })
  t.equal(sent.statusCode, 200)
  t.match(sent.body, 'If an account exists')
  const mail = ctx.outbox().find((m) => m.text.includes('/password/reset/') && JSON.stringify(m.to).includes(user.email))
  t.ok(mail, 'a reset mail was written to the outbox')
  const link = new URL(mail!.link!)
  const [stored] = await database.db.select().from(passwordTokens).where(eq(passwordTokens.userId, user.id))
  t.not(stored!.tokenHash, link.pathname.split('/').pop(), 'only a hash of the token is stored')

  const form = await a.get(link.pathname)
  t.equal(form.statusCode, 200)
  t.match(form.body, '<main data-page="password-reset">')
  const reset = await a.postForm(link.pathname, { password: 'brand-new-secret-7', confirm: 'brand-new-secret-7' })
  t.equal(reset.statusCode, 303)
  await new Agent(app, '10.3.0.2').signIn(user.email, 'brand-new-secret-7')

  const again = await a.postForm(link.pathname, { password: 'another-secret-8', confirm: 'another-secret-8' })
  t.equal(again.statusCode, 400, 'a used link is refused')
  t.match(again.body, 'expired or was already used')

  // A second link, aged past its hour.
  await a.postForm('/password/forgot', { email: user.email })
  const second = ctx.outbox().filter((m) => JSON.stringify(m.to).includes(user.email)).pop()!
  const path2 = new URL(second.link!).pathname
  await database.db.update(passwordTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordTokens.userId, user.id))
  t.equal((await a.get(path2)).statusCode, 410, 'an expired link shows the expired page')
  const late = await a.postForm(path2, { password: 'too-late-secret-9', confirm: 'too-late-secret-9' })
  t.equal(late.statusCode, 400)
})

/** Asks for a reset link by the form and returns its path, as mailed. */
async function mailedResetPath(a: Agent, email: string): Promise<string> {
  await a.get('/password/forgot')
  await a.postForm('/password/forgot', { email })
  const mail = ctx.outbox().filter((m) => m.text.includes('/password/reset/') && JSON.stringify(m.to).includes(email)).pop()
  return new URL(mail!.link!).pathname
}

/** A set-up link (as an invitation mails it) for an existing user, to see it die with a reset. */
async function setupPath(userId: number): Promise<string> {
  const { token, tokenHash } = newLinkToken()
  await insertPasswordToken(database.db, { userId, purpose: 'setup', tokenHash, expiresAt: new Date(Date.now() + 3_600_000) })
  return `/password/setup/${token}`
}

t.test('using one reset link revokes the user\'s other reset and set-up links', async (t) => {
  const user = await createUser(database.db)
  const a = new Agent(app, '10.3.1.1')
  const first = await mailedResetPath(a, user.email)
  const second = await mailedResetPath(a, user.email)
  const setup = await setupPath(user.id)
  t.not(first, second)
  t.equal((await a.postForm(first, { password: 'first-link-secret-1', confirm: 'first-link-secret-1' })).statusCode, 303)

  t.equal((await a.get(second)).statusCode, 410, 'the second link shows the expired page')
  const late = await a.postForm(second, { password: 'second-link-secret-2', confirm: 'second-link-secret-2' })
  t.equal(late.statusCode, 400, 'the second link no longer sets a password')
  t.match(late.body, 'expired or was already used')
  const lateSetup = await a.postForm(setup, { password: 'setup-link-secret-3', confirm: 'setup-link-secret-3' })
  t.equal(lateSetup.statusCode, 400, 'the set-up link no longer sets a password either')
  await new Agent(app, '10.3.1.2').signIn(user.email, 'first-link-secret-1')
  const open = await database.db.select().from(passwordTokens).where(and(eq(passwordTokens.userId, user.id), isNull(passwordTokens.usedAt)))
  t.same(open, [], 'no usable token is left')
})

t.test('changing the password on the profile revokes links mailed before', async (t) => {
  const user = await createUser(database.db)
  const a = new Agent(app, '10.3.2.1')
  const reset = await mailedResetPath(a, user.email)
  const setup = await setupPath(user.id)
  await a.signIn(user.email, user.password)
  const change = await a.postForm('/profile/password', { current: user.password, password: 'profile-secret-4', confirm: 'profile-secret-4' }, { page: '/profile/password' })
  t.equal(change.statusCode, 303)

  const other = new Agent(app, '10.3.2.2')
  t.equal((await other.get(reset)).statusCode, 410, 'the reset link shows the expired page')
  t.equal((await other.postForm(reset, { password: 'attacker-secret-5', confirm: 'attacker-secret-5' })).statusCode, 400, 'the reset link is refused')
  t.equal((await other.postForm(setup, { password: 'attacker-secret-6', confirm: 'attacker-secret-6' })).statusCode, 400, 'the set-up link is refused')
  await new Agent(app, '10.3.2.3').signIn(user.email, 'profile-secret-4')
})

t.test('forgot for an unknown address answers the same and sends nothing', async (t) => {
  const before = ctx.outbox().length
  const a = new Agent(app, '10.4.0.1')
  await a.get('/password/forgot')
  const res = await a.postForm('/password/forgot', { email: 'ghost@example.test' })
  t.equal(res.statusCode, 200)
  t.match(res.body, 'If an account exists')
  t.equal(ctx.outbox().length, before)
})

t.test('a POST without the CSRF token gets 403', async (t) => {
  const user = await createUser(database.db)
  const a = new Agent(app, '10.5.0.1')
  await a.signIn(user.email, user.password)
  const form = await a.request({ method: 'POST', url: '/profile/edit', form: { name: 'Hacked' } })
  t.equal(form.statusCode, 403)
  const api = await a.api('PATCH', `/api/user/${user.id}`, { name: 'Hacked' }, { csrf: false })
  t.equal(api.statusCode, 403)
  t.same(api.json().error.status, 403)
  const [row] = await database.db.select().from(users).where(eq(users.id, user.id))
  t.equal(row!.name, user.name, 'nothing changed')
  const withToken = await a.api('PATCH', `/api/user/${user.id}`, { name: 'Renamed' })
  t.equal(withToken.statusCode, 200, 'the same call with the token succeeds')
  t.equal(withToken.json().data.user.name, 'Renamed')
})

t.test('the 11th login attempt in a minute gets 429 with retry-after', async (t) => {
  const a = new Agent(app, '10.6.0.1')
  await a.get('/login')
  for (let i = 1; i <= 10; i++) {
    const res = await a.postForm('/login', { email: `guess${i}@example.test`, password: 'wrong-guess' })
    t.equal(res.statusCode, 401, `attempt ${i} is judged`)
  }
  const eleventh = await a.postForm('/login', { email: 'guess11@example.test', password: 'wrong-guess' })
  t.equal(eleventh.statusCode, 429)
  t.ok(Number(eleventh.headers['retry-after']) > 0, 'retry-after header')
  t.match(eleventh.body, 'Too many attempts')
})

t.test('per-account limit: 11 attempts on one account from different addresses', async (t) => {
  const user = await createUser(database.db)
  let last = 0
  for (let i = 1; i <= 11; i++) {
    const a = new Agent(app, `10.7.0.${i}`)
    await a.get('/login')
    last = (await a.postForm('/login', { email: user.email, password: 'wrong-guess' })).statusCode
  }
  t.equal(last, 429)
})

t.test('expired sessions are swept and no longer sign anyone in', async (t) => {
  const { sweepExpiredSessions } = await import('../../../src/services/accounts/sessions.ts')
  const user = await createUser(database.db)
  const a = new Agent(app)
  await a.signIn(user.email, user.password)
  await database.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, user.id))
  t.equal((await a.get('/profile')).statusCode, 302, 'an expired session is not honoured')
  await sweepExpiredSessions(app.deps)
  t.equal((await database.db.select().from(sessions).where(eq(sessions.userId, user.id))).length, 0)
})
