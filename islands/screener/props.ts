import { InvalidPropsError } from '../shared/define-island.ts'
import { isRecord } from '../shared/guards.ts'
import { DEFAULT_INDEX_NAME } from '../search-box/constants.ts'

export interface ScreenerProps {
  indexName: string
}

export function parseScreenerProps(raw: unknown): ScreenerProps {
  if (!isRecord(raw)) throw new InvalidPropsError('screener props must be an object')
  return { indexName: typeof raw.indexName === 'string' && raw.indexName !== '' ? raw.indexName : DEFAULT_INDEX_NAME }
}
