// What depends on an entity, so a delete can be refused with the list (SPEC §8, status 221).
// Each entity family registers its own checks here (e.g. rules register "called by a rule of another set").
import type { Db } from '../../db/client.ts'
import { DeleteNotAllowedError, type Dependent } from '../errors.ts'

type DependentCheck = (db: Db, id: number) => Promise<Dependent[]>

const checks = new Map<string, DependentCheck[]>()

export function registerDependentCheck(entityType: string, check: DependentCheck): void {
  checks.set(entityType, [...(checks.get(entityType) ?? []), check])
}

export async function findDependents(db: Db, entityType: string, id: number): Promise<Dependent[]> {
  const found: Dependent[] = []
  for (const check of checks.get(entityType) ?? []) found.push(...(await check(db, id)))
  return found
}

/** The dependents a refusal lists at most; a check may return one more to say that there are more. */
export const DEPENDENTS_LISTED = 200

/** Throws DeleteNotAllowedError (221) listing the dependents (the first DEPENDENTS_LISTED), if there are any. */
export async function assertNoDependents(db: Db, entityType: string, id: number, what: string): Promise<void> {
  const dependents = await findDependents(db, entityType, id)
  if (dependents.length > 0) throw new DeleteNotAllowedError(dependents.slice(0, DEPENDENTS_LISTED), what, dependents.length > DEPENDENTS_LISTED)
}
