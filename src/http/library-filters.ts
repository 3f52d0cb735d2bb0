// The library's filters, read the same way from /library, /library/classic and /api/adviceset/show.
import type { LibraryFilters } from '../services/library/advice-sets.ts'

export const libraryQuerySchema = {
  type: 'object',
  properties: {
    category: { type: 'integer', minimum: 1 }, tag: { type: 'integer', minimum: 1 }, owner: { type: 'string', maxLength: 64 },
    public: { type: 'boolean' }, starter: { type: 'boolean' }, q: { type: 'string', maxLength: 512 },
    sort: { type: 'string', enum: ['updated', 'name', 'created'] }, page: { type: 'integer', minimum: 1, maximum: 100000 },
  },
} as const

export function libraryFiltersFrom(query: Record<string, unknown>): LibraryFilters {
  return {
    categoryId: query.category as number | undefined,
    tagId: query.tag as number | undefined,
    ownerId: (query.owner as string | undefined) || undefined,
    onlyPublic: query.public === true,
    onlyStarter: query.starter === true,
    text: query.q as string | undefined,
    sort: query.sort as LibraryFilters['sort'],
    page: query.page as number | undefined,
  }
}
