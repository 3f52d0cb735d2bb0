// Issue 25, timezone: one's own profile form sets (and clears) the time zone, a colleague's form does not offer it,
// and the pages where the moment matters (activity, usage) say which zone their times are in.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { users } from '../../../src/db/schema/index.ts'
import { formatDateTime } from '../../../src/engine/format/date-time.ts'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { createApiKey } from '../../helpers/api-keys.ts'

const { app, database } = await buildTestApp(t)
const db = database.db
const owner = await createOwner(db, { name: 'Clock Co' })
const adminUser = await createUser(db, { ownerId: owner, role: 'admin', name: 'Ann Admin' })
const authorUser = await createUser(db, { ownerId: owner, role: 'author', name: 'Al Author' })
const admin = await signedInAgent(app, adminUser)
const author = await signedInAgent(app, authorUser)

async function storedZone(userId: number): Promise<string | undefined> {
  const [row] = await db.select({ preferences: users.preferences }).from(users).where(eq(users.id, userId))
  return row!.preferences.tz
}

t.test('one’s own profile form offers the time zone and saves it with the rest', async (t) => {
  const form = await author.get('/profile/edit')
  t.equal(form.statusCode, 200)
  t.match(form.body, /<label for="f-tz">Time zone<\/label>/, 'a Time zone field')
  t.match(form.body, '<option value="" selected>Not set (times in UTC)</option>', 'not set to begin with')
  t.match(form.body, '<option value="Europe/Paris">Europe/Paris</option>', 'the IANA zones are offered')
  t.match(form.body, '<option value="America/New_York">America/New York</option>', 'named for people, valued for machines')

  const saved = await author.postForm('/profile/edit', { name: 'Al Author', title: '', tz: 'Europe/Paris' })
  t.equal(saved.statusCode, 303)
  t.equal(await storedZone(authorUser.id), 'Europe/Paris', 'stored as the preference')
  t.match((await author.get('/profile')).body, /<dt>Time zone<\/dt><dd data-time-zone-label>Europe\/Paris<\/dd>/, 'the profile shows it')
  t.match((await author.get('/profile/edit')).body, '<option value="Europe/Paris" selected>', 'the form shows it chosen')

  const cleared = await author.postForm('/profile/edit', { name: 'Al Author', title: '', tz: '' })
  t.equal(cleared.statusCode, 303)
  t.equal(await storedZone(authorUser.id), undefined, '“Not set” clears it, so the browser’s zone can be offered again')
})

t.test('a zone that does not exist is refused by name, and the other fields are kept', async (t) => {
  const res = await author.postForm('/profile/edit', { name: 'Al Renamed', title: 'Saver', tz: 'Mars/Olympus_Mons' })
  t.equal(res.statusCode, 400)
  t.match(res.body, /<p class="field-error" id="f-tz-error">Time zone must be one of the listed zones, such as Europe\/Paris, or “Not set”.<\/p>/)
  t.match(res.body, 'value="Al Renamed"', 'the name typed is kept')
  const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, authorUser.id))
  t.equal(row!.name, 'Al Author', 'nothing was saved')
})

t.test('an admin editing a colleague’s profile is not offered the colleague’s time zone', async (t) => {
  const form = await admin.get(`/profile/edit?id=${authorUser.id}`)
  t.equal(form.statusCode, 200)
  t.notMatch(form.body, 'f-tz', 'no Time zone field')
  await author.postForm('/profile/edit', { name: 'Al Author', title: '', tz: 'Asia/Tokyo' })
  const saved = await admin.postForm(`/profile/edit?id=${authorUser.id}`, { name: 'Al A. Author', title: '', tz: 'Europe/Paris' })
  t.equal(saved.statusCode, 303, 'the colleague’s name is saved')
  t.equal(await storedZone(authorUser.id), 'Asia/Tokyo', 'a zone posted anyway is not taken for the colleague')
})

t.test('activity and usage say which zone their times are in, and show them in it', async (t) => {
  const none = await admin.get('/activity')
  t.match(none.body, 'Times are in <span data-time-zone-label>UTC</span>', 'no zone chosen: UTC, said so')
  await admin.postForm('/profile/edit', { name: 'Ann Admin', title: '', tz: 'America/New_York' })
  const page = await admin.get('/activity')
  t.match(page.body, 'Times are in <span data-time-zone-label>America/New_York</span> · <a href="/profile/edit">Change time zone</a>')
  const moment = /<time datetime="([^"]+)" data-moment title="([^"]+)">([^<]+)<\/time>/.exec(page.body)
  t.ok(moment, 'each entry’s time is a <time> the page can rewrite')
  const at = new Date(moment![1]!)
  t.equal(moment![3], formatDateTime(at, 'America/New_York'), 'shown in New York time')
  t.equal(moment![2], `${formatDateTime(at, 'UTC')} UTC`, 'and in UTC on hover')

  const { key } = await createApiKey(db, { ownerId: owner, environment: 'production' })
  const usage = await admin.get(`/admin/apikey/${key.id}/usage`)
  t.equal(usage.statusCode, 200)
  t.match(usage.body, 'Times are in <span data-time-zone-label>America/New_York</span>')
})
