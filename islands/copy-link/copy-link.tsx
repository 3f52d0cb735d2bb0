// A link to share, in a read-only field with a Copy button; when the clipboard is refused the text is selected so it
// can be copied by keyboard. The server renders the same field without the button.
import { useId, useRef } from 'react'
import { copyShownText } from '../shared/clipboard.ts'
import type { CopyLinkProps } from './props.ts'

export function CopyLink({ link, label }: CopyLinkProps) {
  const id = useId()
  const field = useRef<HTMLInputElement>(null)

  return (
    <>
      <label htmlFor={id}>{label}</label>
      <span className="media-share__row">
        <input id={id} ref={field} className="media-share__value" type="text" readOnly value={link} spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={() => void copyShownText(link, field.current, { label, noun: 'link' })}>Copy link</button>
      </span>
      <p className="hint">Anyone with this link can open it, without signing in: it is how sources reach partners’ users.</p>
    </>
  )
}
