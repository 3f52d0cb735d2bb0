// An advice set as a service is given it: by id, or as the caller already read it in this request. The set page reads
// its set once and hands it to the sections it shows (scenario counts, requests, analytics, files), each of which had
// read it again to check the actor's rights: five reads of one row for one page. The rights are checked either way.
import type { Db } from '../../db/client.ts'
import { findAdviceSet } from '../../db/queries/advice-sets.ts'
import { NotFoundError } from '../errors.ts'

/** What the rights on a set are decided by. */
export interface SetFacts { id: number; ownerId: string; isPublic: boolean; isStarter: boolean }

/** A set's id, or the set itself as read earlier in the same request (never one kept across requests). */
export type SetRef = number | SetFacts

/** The set, read unless it was given, when `allowed` says the actor may see it; otherwise 404 as for a missing set. */
export async function setAllowed(db: Db, ref: SetRef, allowed: (set: SetFacts) => boolean): Promise<SetFacts> {
  const set = typeof ref === 'number' ? await findAdviceSet(db, ref) : ref
  if (!set || !allowed(set)) throw new NotFoundError('No advice set with this id')
  return set
}
