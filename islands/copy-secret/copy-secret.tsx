// A secret shown once, in a read-only field with a Copy button; when the clipboard is refused the text is selected
// so the user can copy it by keyboard.
import { useRef } from 'react'
import { copyShownText } from '../shared/clipboard.ts'
import type { CopySecretProps } from './props.ts'

export function CopySecret({ secret, label, noun, fieldId }: CopySecretProps) {
  const field = useRef<HTMLInputElement>(null)

  return (
    <>
      <label htmlFor={fieldId}>{label}</label>
      <input id={fieldId} ref={field} className="api-key-secret__value" type="text" readOnly value={secret}
        spellCheck={false} autoComplete="off" onFocus={(e) => e.currentTarget.select()} />
      <button type="button" className="api-key-secret__copy" onClick={() => void copyShownText(secret, field.current, { label, noun })}>Copy</button>
    </>
  )
}
