// Issue 27 point 3 in the browser: a version in review replays the published version's recorded answers; the gate
// shows the changed group and links a record, whose page shows the answer before and after side by side.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { startServer } from '../helpers/server.ts'
import { axeViolationsInMain, chromiumMissing, islandsSettled, launchBrowser, newQuietContext, signInByApi } from '../helpers/browser.ts'
import { retirementSet } from '../helpers/scenarios.ts'
import { publishVersion } from '../helpers/publishing.ts'
import { createApiKey } from '../helpers/api-keys.ts'
import { recordAnswers } from '../helpers/decisions.ts'
import { findUserById } from '../../src/db/queries/users.ts'
import { actorForUser } from '../../src/services/accounts/users.ts'
import { createVersion } from '../../src/services/publishing/versions.ts'
import { transitionVersion } from '../../src/services/publishing/workflow.ts'
import { ruleNodes } from '../../src/db/schema/index.ts'

t.test('replay at the review gate', { skip: chromiumMissing }, async (t) => {
  const server = await startServer()
  t.teardown(() => server.close())
  const browser = await launchBrowser(t)
  const author = await server.createUser({ role: 'author' })
  const admin = await server.createUser({ role: 'admin', ownerId: author.ownerId })
  const { set, ids } = await retirementSet(server.db, author.ownerId, { name: 'Pension replay' })
  const published = await publishVersion(server.db, { adviceSetId: set.id })
  const key = await createApiKey(server.db, { ownerId: author.ownerId })
  const ages = Array.from({ length: 60 }, (_, i) => 40 + i)
  await recordAnswers(server.db, { ownerId: author.ownerId, adviceSetId: set.id, versionId: published.id, versionNumber: published.number, apiKeyId: key.key.id },
    published, ages.map((Age) => ({ inputs: { Age, Risk: 'low' } })), Date.now() - 3_600_000)
  await server.db.update(ruleNodes).set({ expression: '{{Age}} >= 70' }).where(eq(ruleNodes.id, Number(ids.old)))
  const actor = actorForUser((await findUserById(server.db, author.id))!)
  const version = await createVersion(server.app.deps, actor, { adviceSetId: set.id })
  await transitionVersion(server.app.deps, actor, version.id, 'submit')

  const context = await newQuietContext(browser)
  t.teardown(() => context.close())
  const page = await context.newPage()
  await signInByApi(page, server.url, admin)
  await page.goto(`${server.url}/adviceset/${set.id}/publish/versions/${version.id}`)
  t.equal(await islandsSettled(page), 'mounted')
  const replay = page.locator('#replay')
  const changed = ages.filter((age) => age >= 65 && age < 70).length
  t.equal(await replay.getAttribute('data-changed'), String(changed), 'the recorded answers aged 65 to 69 change')
  const group = replay.locator('[data-replay-kind="adviceRemoved"]')
  t.match(await group.textContent(), new RegExp(`Advice removed\\s*${changed}`), 'in the group "Advice removed"')
  t.match(await page.locator('.gate-risk').textContent(), `${changed} recorded answers of 60 replayed whose outcome changes`, 'approving needs the confirmation')
  t.same(await axeViolationsInMain(page), [], 'the gate with its replay passes axe')
  await Promise.all([page.waitForURL(/\/decisions\/[0-9a-f-]+\?against=/), group.locator('a[data-replay-example]').first().click()])
  const sides = page.locator('[data-replay-sides]')
  t.match(await sides.locator('[data-side="before"]').textContent(), 'Retire', 'before: Retire')
  t.notMatch(await sides.locator('[data-side="after"]').textContent(), 'Retire', 'after: no longer')
  t.match(await page.locator('.decision-replay__result').textContent(), `On version ${version.number}, the answer would differ`)
})
