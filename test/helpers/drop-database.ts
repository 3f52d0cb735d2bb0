// Dropping a test or bench database on PostgreSQL 15 as a role that is not a superuser. DROP … WITH (FORCE) ends the
// other sessions in it, but refuses when one of them is an autovacuum worker (a process of no role: error 42501),
// which may visit a freshly made database at any moment. A plain DROP signals autovacuum away and waits for it.
import type postgres from 'postgres'

export async function dropDatabase(admin: postgres.Sql, name: string): Promise<void> {
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  } catch (error) {
    if ((error as { code?: string }).code !== '42501') throw error
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name}`)
  }
}
