import { createRequire } from 'node:module'
const require = createRequire(import.meta.url)
import { buildTestApp } from '../../test/helpers/app.ts'
import { Agent } from '../../test/helpers/agent.ts'
import { createUser } from '../../test/helpers/factories.ts'
import { createAdviceSet } from '../../test/helpers/advice-sets.ts'
import { buildRule, createFormula, createVariable } from '../../test/helpers/rules.ts'
import { largeRule } from '../../test/e2e/rule-tree-setup.ts'
const teardowns: Array<() => unknown> = []
const { app, database } = await buildTestApp({ teardown: (fn) => teardowns.push(fn) })
const db = database.db
const user = await createUser(db, { role: 'author' })
await createVariable(db, user.ownerId, 'Age'); await createVariable(db, user.ownerId, 'Income'); await createFormula(db, user.ownerId, 'Ratio', '{{Income}} / 12')
const set = await createAdviceSet(db, { ownerId: user.ownerId, name: 'P' })
const { rule } = await buildRule(db, set.id, 'R', largeRule(2000))
const agent = new Agent(app); await agent.signIn(user.email, user.password)
import { Session } from 'node:inspector/promises'
const session = new Session(); session.connect(); await session.post('Profiler.enable'); await agent.request({ method: 'GET', url: `/adviceset/${set.id}/rule/${rule.id}/show` }); await session.post('Profiler.start')
for (let i = 0; i < 6; i++) {
  const t = performance.now()
  const res = await agent.request({ method: 'GET', url: `/adviceset/${set.id}/rule/${rule.id}/show` })
  const zres = await agent.request({ method: 'GET', url: `/adviceset/${set.id}/rule/${rule.id}/show`, headers: { 'accept-encoding': 'br, gzip' } })
  console.log(res.statusCode, (performance.now() - t).toFixed(0), 'ms', (res.body.length / 1024).toFixed(0), 'KB', zres.headers['content-encoding'], (zres.rawPayload.length / 1024).toFixed(0), 'KB sent')
  if (i === 0) { for (const m of res.body.matchAll(/data-props='([^']*)'|data-props="([^"]*)"/g)) console.log('props attr KB', (((m[1] ?? m[2])!.length) / 1024).toFixed(0)); require('node:fs').writeFileSync('/tmp/probe/page.html', res.body) }
}
const { profile } = await session.post('Profiler.stop'); require('node:fs').mkdirSync('/tmp/prof', { recursive: true }); require('node:fs').writeFileSync('/tmp/prof/page.cpuprofile', JSON.stringify(profile))
for (const fn of teardowns.reverse()) await fn()
