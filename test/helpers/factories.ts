// Test data through the same queries the app uses; each call makes unique people so tests never collide.
import { randomBytes } from 'node:crypto'
import type { Db } from '../../src/db/client.ts'
import { findOwner, insertOwner, insertUser } from '../../src/db/queries/users.ts'
import type { UserRole } from '../../src/db/schema/index.ts'
import { hashPassword } from '../../src/services/accounts/passwords.ts'

export interface TestUser { id: number; email: string; password: string; ownerId: string; role: UserRole; name: string }

export async function createOwner(db: Db, opts: { id?: string; name?: string } = {}): Promise<string> {
  const id = opts.id ?? `o${randomBytes(4).toString('hex')}`
  if (!(await findOwner(db, id))) await insertOwner(db, { id, name: opts.name ?? `Team ${id}` })
  return id
}

export async function createUser(db: Db, opts: { role?: UserRole; ownerId?: string; name?: string; password?: string } = {}): Promise<TestUser> {
  const ownerId = opts.ownerId ?? await createOwner(db)
  const suffix = randomBytes(4).toString('hex')
  const email = `user-${suffix}@example.test`
  const password = opts.password ?? `pw-${suffix}-Zq9`
  const role = opts.role ?? 'author'
  const name = opts.name ?? `User ${suffix}`
  const row = await insertUser(db, { ownerId, email, name, role, passwordHash: await hashPassword(password) })
  return { id: row.id, email, password, ownerId, role, name }
}
