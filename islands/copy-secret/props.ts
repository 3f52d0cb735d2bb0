import { InvalidPropsError } from '../shared/invalid-props.ts'
import { isRecord } from '../shared/guards.ts'

export interface CopySecretProps {
  /** The text to copy (an API key shown once). */
  secret: string
  label: string
}

export function parseCopySecretProps(raw: unknown): CopySecretProps {
  if (!isRecord(raw) || typeof raw.secret !== 'string' || raw.secret === '') throw new InvalidPropsError('copy-secret needs a secret')
  return { secret: raw.secret, label: typeof raw.label === 'string' ? raw.label : 'Key' }
}
