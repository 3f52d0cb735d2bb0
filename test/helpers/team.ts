// Who most API tests need: an owner ("Acme") with a signed-in author and viewer, and a signed-in author of another owner.
import type { FastifyInstance } from 'fastify'
import type { Db } from '../../src/db/client.ts'
import { signedInAgent } from './agent.ts'
import { createOwner, createUser } from './factories.ts'

export async function signedInTeam(app: FastifyInstance, db: Db) {
  const ownerId = await createOwner(db, { name: 'Acme' })
  const author = await createUser(db, { ownerId, role: 'author' })
  const viewer = await createUser(db, { ownerId, role: 'viewer' })
  const stranger = await createUser(db, { role: 'author' })
  return {
    ownerId, author, viewer, stranger,
    agent: await signedInAgent(app, author),
    viewerAgent: await signedInAgent(app, viewer),
    strangerAgent: await signedInAgent(app, stranger),
  }
}

/**
 * Everyone the admin-area tests need, one per role: a provider admin (owner TF, created here), an owner "Acme" with
 * its admin, author and viewer, and an admin of another owner.
 */
export async function adminCast(db: Db) {
  await createOwner(db, { id: 'TF', name: 'Advice Studio' })
  const providerAdmin = await createUser(db, { ownerId: 'TF', role: 'admin' })
  const acme = await createOwner(db, { name: 'Acme' })
  return {
    providerAdmin, acme,
    acmeAdmin: await createUser(db, { ownerId: acme, role: 'admin' }),
    acmeAuthor: await createUser(db, { ownerId: acme, role: 'author' }),
    acmeViewer: await createUser(db, { ownerId: acme, role: 'viewer' }),
    otherAdmin: await createUser(db, { role: 'admin' }),
  }
}
