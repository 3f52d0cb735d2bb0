// /api/dictionary: the API key owner's variables, for partners building their forms.
import type { FastifyInstance } from 'fastify'
import { partnerDictionary } from '../../services/advice-dictionary.ts'
import type { PartnerContext } from './advice-partner.ts'
import { dictionarySchema } from './advice-schemas.ts'

export async function dictionaryApi(app: FastifyInstance, opts: PartnerContext) {
  app.get('/dictionary', { schema: dictionarySchema, config: { csrf: false }, onRequest: opts.requireApiKey }, async (request) => ({
    data: await partnerDictionary(app.deps.db, request.partnerKey!),
  }))
}
