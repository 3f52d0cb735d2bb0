// First-start content: the provider owner with an admin; in embedded mode also a second owner with an author, who
// owns a small demo advice set.
import { randomBytes } from 'node:crypto'
import { countUsers, findOwner, insertOwner, insertUser } from '../../db/queries/users.ts'
import { audit } from '../audit/audit.ts'
import { PROVIDER_OWNER_ID, type Actor, type Deps } from '../context.ts'
import { seedDemoContent } from './demo-content.ts'
import { serveDemoSet, type DemoDelivery } from './demo-delivery.ts'
import { hashPassword } from '../accounts/passwords.ts'
import { actorForUser } from '../accounts/users.ts'

export interface DemoLogin { email: string; password: string; role: string; owner: string }

/** What a first start made, to be printed once: the logins, and with the demo the served set and its key. */
export interface FirstRun { logins: DemoLogin[]; served: DemoDelivery | null }

/** Seeds only a database without users; nothing (no logins) when it already has some. */
export async function seedFirstRun(deps: Deps, opts: { demo: boolean }): Promise<FirstRun> {
  if ((await countUsers(deps.db)) > 0) return { logins: [], served: null }
  const people = [
    { ownerId: PROVIDER_OWNER_ID, owner: 'Advice Studio', email: 'admin@advice.studio', name: 'Ada Admin', role: 'admin' as const },
    ...(opts.demo ? [{ ownerId: 'acme', owner: 'Acme Advisers', email: 'author@acme.example', name: 'Alan Author', role: 'author' as const }] : []),
  ]
  const logins: DemoLogin[] = []
  let author: Actor | undefined
  await deps.db.transaction(async (tx) => {
    for (const p of people) {
      const password = `studio-${randomBytes(6).toString('base64url')}`
      // The provider owner comes with the migrations; other owners are created here.
      if (!(await findOwner(tx, p.ownerId))) {
        await insertOwner(tx, { id: p.ownerId, name: p.owner })
        await audit(tx, null, { ownerId: p.ownerId, action: 'create', entityType: 'owner', entityId: p.ownerId, after: { name: p.owner } })
      }
      const user = await insertUser(tx, { ownerId: p.ownerId, email: p.email, name: p.name, role: p.role, passwordHash: await hashPassword(password) })
      await audit(tx, null, { ownerId: p.ownerId, action: 'create', entityType: 'user', entityId: user.id, after: { name: p.name, email: p.email, role: p.role } })
      logins.push({ email: p.email, password, role: p.role, owner: p.owner })
      if (p.role === 'author') author = actorForUser(user)
    }
  })
  if (!author) return { logins, served: null }
  const adviceSetId = await seedDemoContent(deps, author)
  return { logins, served: await serveDemoSet(deps, author.ownerId, adviceSetId) }
}
