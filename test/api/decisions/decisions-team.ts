// The world of the decision settings and subject-rights tests: a partner set served by a production key, its team
// (admin, author, viewer), another owner's admin and a provider admin, each signed in.
import type { Test } from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { signedInAgent } from '../../helpers/agent.ts'
import { createOwner, createUser } from '../../helpers/factories.ts'
import { partnerCall, partnerFixture } from '../delivery/advice-api-setup.ts'

export async function decisionsTeam(t: Test) {
  const ctx = await buildTestApp(t)
  const f = await partnerFixture(ctx)
  const { db } = f
  await createOwner(db, { id: 'TF', name: 'Provider' })
  const [admin, author, viewer, outsider, provider] = await Promise.all([
    createUser(db, { ownerId: f.ownerId, role: 'admin', name: 'Ada Admin' }), createUser(db, { ownerId: f.ownerId, role: 'author' }),
    createUser(db, { ownerId: f.ownerId, role: 'viewer' }), createUser(db, { role: 'admin' }), createUser(db, { ownerId: 'TF', role: 'admin' }),
  ])
  const as = {
    admin: await signedInAgent(ctx.app, admin), author: await signedInAgent(ctx.app, author), viewer: await signedInAgent(ctx.app, viewer),
    outsider: await signedInAgent(ctx.app, outsider), provider: await signedInAgent(ctx.app, provider),
  }
  return { ctx, f, db, admin, provider, as, call: partnerCall(ctx, f.production.secret) }
}
