import { InvalidPropsError } from '../shared/invalid-props.ts'
import { isRecord } from '../shared/guards.ts'

export interface CopySecretProps {
  /** The text to copy (an API key shown once). */
  secret: string
  label: string
  /** What the secret is called in the notice when copying is refused ("The token is selected"); default "key". */
  noun: string
  /** The field's id (the server-rendered fallback's, which the label points at); default "api-key-secret". */
  fieldId: string
}

export function parseCopySecretProps(raw: unknown): CopySecretProps {
  if (!isRecord(raw) || typeof raw.secret !== 'string' || raw.secret === '') throw new InvalidPropsError('copy-secret needs a secret')
  return {
    secret: raw.secret, label: typeof raw.label === 'string' ? raw.label : 'Key', noun: typeof raw.noun === 'string' ? raw.noun : 'key',
    fieldId: typeof raw.fieldId === 'string' && /^[a-z][a-z0-9-]{0,40}$/.test(raw.fieldId) ? raw.fieldId : 'api-key-secret',
  }
}
