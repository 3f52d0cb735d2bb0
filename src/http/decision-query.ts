// The decisions list's query (pages and /api alike): the filters and the cursor as text, checked by the service
// (services/decisions/filters.ts), which names the field of a bad value.
import { Type } from '@fastify/type-provider-typebox'
import { StringEnum } from './schemas.ts'

const Text = (description: string) => Type.Optional(Type.String({ maxLength: 200, description }))

export const DecisionListQuery = Type.Object({
  from: Text('From this day (YYYY-MM-DD, UTC) or moment (ISO 8601).'),
  to: Text('Up to and including this day (YYYY-MM-DD, UTC), or before this moment (ISO 8601).'),
  key: Text('The id of the API key that asked.'),
  version: Text('The version number.'),
  advice: Text('The node id of an advice item given.'),
  status: Text('complete, question or pending.'),
  errors: Text('yes: only records with errors; no: only those without.'),
  before: Text('The cursor of the next page (`next` of the previous one).'),
})

/** The decision page's "Run again on this version" and "Run on the working draft". */
export const DecisionRunQuery = Type.Object({
  run: Type.Optional(StringEnum(['version', 'draft'])),
  /** Another version of the set to run the record on (the review gate's replay links here). */
  against: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,9}$' })),
})
export const DecisionParams = Type.Object({ id: Type.String({ maxLength: 20 }), decisionId: Type.String({ maxLength: 64 }) })
