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
