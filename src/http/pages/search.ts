// The screener (/library/search, page "screener"): the page around the instantsearch island. Without
// JavaScript it shows what was searched for, a keyword map's target when the text matches one of its phrases, and
// links to the library's own text filter.
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { indexNameFor } from '../../search/index.ts'
import { keywordMapSuggestion } from '../../services/library/keyword-search.ts'
import { actorOf, requireUser } from '../plugins/auth.ts'

/** SPEC.md §5: search text is capped at 512 characters. */
const QUERY_MAX_LENGTH = 512

const ScreenerQuery = Type.Object({ q: Type.Optional(Type.String()) })

export const searchPages: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/library/search', { preHandler: requireUser, schema: { querystring: ScreenerQuery } }, async (request, reply) => {
    const query = (request.query.q ?? '').slice(0, QUERY_MAX_LENGTH).trim()
    const indexName = indexNameFor(app.deps.config)
    const suggestion = query === '' ? null : await keywordMapSuggestion(app.deps, actorOf(request), query)
    return reply.page('library/search', {
      suggestion,
      title: 'Advanced Search',
      query,
      libraryUrl: query === '' ? '/library' : `/library?${new URLSearchParams({ q: query }).toString()}`,
      searchIndexName: indexName,
      screenerProps: JSON.stringify({ indexName }),
    })
  })
}
