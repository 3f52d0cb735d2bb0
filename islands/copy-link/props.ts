import { InvalidPropsError } from '../shared/invalid-props.ts'
import { isRecord } from '../shared/guards.ts'

export interface CopyLinkProps {
  /** An absolute address to open or copy (SPEC §7: supplements {id}/view's absolute link). */
  link: string
  label: string
}

export function parseCopyLinkProps(raw: unknown): CopyLinkProps {
  if (!isRecord(raw) || typeof raw.link !== 'string' || !/^https?:\/\//.test(raw.link)) throw new InvalidPropsError('copy-link needs an absolute http(s) link')
  return { link: raw.link, label: typeof raw.label === 'string' ? raw.label : 'Link' }
}
