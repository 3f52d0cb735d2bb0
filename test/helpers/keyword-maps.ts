// Who the keyword map tests need: the provider owner, an owner ("Acme") with a signed-in admin, author and viewer, an
// admin of another owner ("Globex") and a provider admin, and Acme's retirement set.
import type { FastifyInstance } from 'fastify'
import type { Db } from '../../src/db/client.ts'
import { signedInAgent } from './agent.ts'
import { createOwner, createUser } from './factories.ts'
import { retirementSet } from './scenarios.ts'

export async function keywordMapTeams(app: FastifyInstance, db: Db) {
  await createOwner(db, { id: 'TF', name: 'Advice Studio' })
  const acme = await createOwner(db, { name: 'Acme' })
  const globex = await createOwner(db, { name: 'Globex' })
  return {
    acme, globex,
    admin: await signedInAgent(app, await createUser(db, { ownerId: acme, role: 'admin' })),
    author: await signedInAgent(app, await createUser(db, { ownerId: acme, role: 'author' })),
    viewer: await signedInAgent(app, await createUser(db, { ownerId: acme, role: 'viewer' })),
    strangerAdmin: await signedInAgent(app, await createUser(db, { ownerId: globex, role: 'admin' })),
    providerAdmin: await signedInAgent(app, await createUser(db, { ownerId: 'TF', role: 'admin' })),
    set: (await retirementSet(db, acme, { name: 'Acme pensions' })).set,
  }
}
