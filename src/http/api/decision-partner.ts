// GET /api/decision/{decisionId} (issue 26): a partner reads back a record of what it was told, with the key that
// caused it (the Decision-Id of the answer). Any other key gets 404, as if the record did not exist.
import { Type, type FastifyPluginAsyncTypebox, type Static, type TSchema } from '@fastify/type-provider-typebox'
import { partnerDecision } from '../../services/decisions/read.ts'
import { BEARER_SECURITY, PARTNER_TAG, errorSchema } from './advice-schemas.ts'

const DecisionIdParams = Type.Object({ decisionId: Type.String({ maxLength: 64, description: 'The Decision-Id header of the answer.' }) })

const Str = Type.String
const Int = Type.Integer
/** OpenAPI 3.0's nullable (the document must stay valid 3.0, where a null type does not exist). */
const Nullable = <T extends TSchema>(schema: T) => Type.Unsafe<Static<T> | null>({ ...schema, nullable: true })
const Path = Type.Array(Type.Object({ nodeId: Str(), expression: Str({ description: 'The condition as written in that version.' }) }))

/** The record as the partner reads it: every member always present (the serializer writes exactly these). */
const DecisionRecord = Type.Object({
  id: Str(), receivedAt: Str({ format: 'date-time' }), adviceSetId: Int(), versionId: Int(), versionNumber: Int(), apiKeyId: Int(),
  environment: Str(), endpoint: Str({ description: 'api, legacy or embed.' }), contentType: Str(),
  inputs: Type.Object({}, { additionalProperties: true, description: 'By variable name, as the engine used them; a personal one is {"personal": true}.' }),
  status: Str({ description: 'complete, question or pending.' }), hasErrors: Type.Boolean(),
  outcome: Type.Object({
    items: Type.Array(Type.Object({ nodeId: Str(), group: Str(), headline: Str(), path: Path })),
    question: Nullable(Type.Object({ nodeId: Str(), variable: Str(), question: Str(), path: Path }, { description: 'The question asked next; null when the run did not stop at one.' })),
    errors: Type.Array(Type.Object({ nodeId: Str(), code: Str(), message: Str(), variable: Type.Optional(Str()) })),
  }),
  engineMicros: Int(),
})

const schema = {
  tags: [PARTNER_TAG],
  summary: 'A decision record of an answer this key was given',
  description: 'What was asked (inputs as the engine used them; personal ones as {"personal": true}) and answered (status, '
    + 'advice items with headlines and the conditions that led to each, the question asked next, errors), under which version.',
  security: BEARER_SECURITY,
  params: DecisionIdParams,
  response: {
    200: Type.Object({ data: DecisionRecord }, { description: 'The record.' }),
    401: Type.Object(errorSchema.properties, { description: 'No API key, or one that is unknown or deleted.' }),
    404: Type.Object(errorSchema.properties, { description: 'No record with this id that this key caused.' }),
  },
}

export const decisionPartnerApi: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/decision/:decisionId', { schema, onRequest: app.partner.requireApiKey }, async (request) => {
    const data = await partnerDecision(app.deps.db, request.partnerKey!, request.params.decisionId)
    // Metered under the set the record is of, like the answer it records.
    request.meteredAdviceSetId = data.adviceSetId
    return { data }
  })
}
