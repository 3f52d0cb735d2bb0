// Visibility as words of the search tsvector: each document also holds tokens for its owner, entity type and public
// and starter flags. A filter made of those becomes part of the text query, so the one GIN index finds exactly the
// visible matches — no row of someone else's private set is read to be thrown away, and a rare filter (starters,
// one owner) lets the index skip through the text's postings. Query words are runs of letters and digits, so no
// text a user types can produce a token (they start with "~").
import { sql, type SQL } from 'drizzle-orm'
import type { Condition } from './types.ts'

const PUBLIC = '~public'
const STARTER = '~starter'
const OWNER = '~owner:'
const TYPE = '~type:'

/** The tokens of the row, as the generated column computes them. */
export const rowTokensSql: SQL = sql`array_to_tsvector(array_remove(ARRAY[
  ${sql.raw(`'${OWNER}'`)} || owner_id, ${sql.raw(`'${TYPE}'`)} || entity_type_id::text,
  CASE WHEN is_public THEN ${sql.raw(`'${PUBLIC}'`)} END, CASE WHEN is_starter THEN ${sql.raw(`'${STARTER}'`)} END
], NULL))`

/** tsquery syntax: a quoted lexeme doubles its quotes and escapes backslashes. */
function lexeme(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`
}

/** The token a condition is, when it is one; null for conditions checked on the row instead. */
export function conditionToken(c: Condition): string | null {
  switch (c.field) {
    case 'ownerId': return lexeme(`${OWNER}${String(c.value)}`)
    case 'entityType.id': return Number.isSafeInteger(Number(c.value)) ? lexeme(`${TYPE}${Number(c.value)}`) : null
    case 'adviceset.isPublic': return c.value === true || c.value === 'true' ? lexeme(PUBLIC) : null
    case 'adviceset.isStarter': return c.value === true || c.value === 'true' ? lexeme(STARTER) : null
    default: return null
  }
}
