// /api/dictionary: the API key owner's variables, for partners building their forms.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { partnerDictionary } from '../../services/delivery/dictionary.ts'
import { dictionarySchema } from './advice-schemas.ts'

export const dictionaryApi: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/dictionary', { schema: dictionarySchema, onRequest: app.partner.requireApiKey }, async (request) => ({
    data: await partnerDictionary(app.deps.db, request.partnerKey!),
  }))
}
