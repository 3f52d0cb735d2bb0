// Which search index the app uses: Meilisearch when MEILI_URL is set, PostgreSQL full-text otherwise.
import type { Config } from '../config.ts'
import type { Db } from '../db/client.ts'
import { MeiliSearchIndex } from './meilisearch.ts'
import { PostgresSearchIndex } from './postgres.ts'
import type { SearchIndex } from './types.ts'

/** SPEC §7: the index is named prefix plus _updatedAt. */
export function indexNameFor(config: Pick<Config, 'searchIndexPrefix'>): string {
  return `${config.searchIndexPrefix}_updatedAt`
}

export function createSearchIndex(config: Pick<Config, 'meiliUrl' | 'meiliKey' | 'searchIndexPrefix'>, db: Db): SearchIndex {
  if (config.meiliUrl) return new MeiliSearchIndex({ host: config.meiliUrl, apiKey: config.meiliKey, indexName: indexNameFor(config) })
  return new PostgresSearchIndex(db)
}
