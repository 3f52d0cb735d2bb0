// How many comments each node of a rule has, for the rule's page and API. Comments are collaboration data of the
// set's own team (canCollaborateOnSet): a reader of another team's public or starter set gets no counts, as it
// gets no comments (authoring/comments.ts).
import type { Db } from '../../db/client.ts'
import { countCommentsByRule } from '../../db/queries/comments.ts'
import { canCollaborateOnSet } from '../accounts/visibility.ts'
import type { Actor } from '../context.ts'

export async function visibleCommentCounts(db: Db, actor: Actor, rule: { id: number; set: { ownerId: string } }): Promise<Record<number, number>> {
  return canCollaborateOnSet(actor, rule.set) ? countCommentsByRule(db, rule.id) : {}
}
