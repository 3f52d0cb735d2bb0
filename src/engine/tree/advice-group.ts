import { TAG_SLUGS } from '../entity-types.ts'
import type { AdviceGroup } from './compiled.ts'

/** An item tagged "assumption" is an assumption, else one tagged "example" is an example, else it is advice. */
export function adviceGroupOf(tags: readonly string[]): AdviceGroup {
  if (tags.includes(TAG_SLUGS.assumption)) return 'assumptions'
  if (tags.includes(TAG_SLUGS.example)) return 'examples'
  return 'advice'
}
