// A link to share, in a read-only field with a Copy button; when the clipboard is refused the text is selected so it
// can be copied by keyboard. The server renders the same field without the button.
import { useId, useRef } from 'react'
import { notify } from '../shared/notify.ts'
import type { CopyLinkProps } from './props.ts'

export function CopyLink({ link, label }: CopyLinkProps) {
  const id = useId()
  const field = useRef<HTMLInputElement>(null)

  async function copy() {
    try {
      await navigator.clipboard.writeText(link)
      notify({ type: 'success', text: `${label} copied to the clipboard.` })
    } catch {
      field.current?.select()
      notify({ type: 'warning', text: 'The browser did not allow copying. The link is selected: press Ctrl+C (⌘C on a Mac).' })
    }
  }

  return (
    <>
      <label htmlFor={id}>{label}</label>
      <span className="media-share__row">
        <input id={id} ref={field} className="media-share__value" type="text" readOnly value={link} spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={() => void copy()}>Copy link</button>
      </span>
      <p className="hint">Anyone with this link can open it, without signing in: it is how sources reach partners’ users.</p>
    </>
  )
}
