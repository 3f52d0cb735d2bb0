// The library's filters, read the same way from /library, /library/classic and /api/adviceset/show.
import { Type, type Static } from '@fastify/type-provider-typebox'
import type { LibraryFilters } from '../services/library/advice-sets.ts'
import { StringEnum } from './schemas.ts'

export const LibraryQuery = Type.Object({
  category: Type.Optional(Type.Integer({ minimum: 1 })), tag: Type.Optional(Type.Integer({ minimum: 1 })), owner: Type.Optional(Type.String({ maxLength: 64 })),
  public: Type.Optional(Type.Boolean()), starter: Type.Optional(Type.Boolean()), q: Type.Optional(Type.String({ maxLength: 512 })),
  sort: Type.Optional(StringEnum(['updated', 'name', 'created'])), page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
})
export type LibraryQuery = Static<typeof LibraryQuery>

export function libraryFiltersFrom(query: LibraryQuery): LibraryFilters {
  return {
    categoryId: query.category,
    tagId: query.tag,
    ownerId: query.owner || undefined,
    onlyPublic: query.public === true,
    onlyStarter: query.starter === true,
    text: query.q,
    sort: query.sort,
    page: query.page,
  }
}
