// A text field that finds tags by name as it is typed: a combobox (WAI-ARIA 1.2) whose list offers the tags whose
// name contains the text. Choosing one fills in its name; the form sends the name, which the server resolves, so the
// field works the same without JavaScript (the server-rendered fallback is the bare field).
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { SHOWN, tagSuggestions, type TagOption } from './suggestions.ts'
import type { TagPickerProps } from './props.ts'

/** Typing pauses this long before the tags are asked for. */
const TYPING_PAUSE_MS = 150

export function TagPicker({ inputId, name, label, exclude, value, errorId, required, placeholder }: TagPickerProps) {
  const [text, setText] = useState(value)
  const [options, setOptions] = useState<TagOption[] | null>(null)
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const [failed, setFailed] = useState(false)
  const excluded = useMemo(() => new Set(exclude), [exclude])
  const listId = `${inputId}-options`
  const asked = useRef<AbortController | null>(null)

  useEffect(() => {
    if (!open) return undefined
    const timer = setTimeout(() => {
      asked.current?.abort()
      const controller = new AbortController()
      asked.current = controller
      tagSuggestions(text, excluded, controller.signal).then(
        (found) => { setOptions(found); setActive(-1); setFailed(false) },
        (err: unknown) => { if (!controller.signal.aborted) { setOptions([]); setFailed(true); console.error('tag-picker: the tags could not be read', err) } },
      )
    }, TYPING_PAUSE_MS)
    return () => clearTimeout(timer)
  }, [text, open, excluded])

  useEffect(() => () => asked.current?.abort(), [])

  function choose(option: TagOption) {
    setText(option.label)
    setOpen(false)
    setActive(-1)
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const count = options?.length ?? 0
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      if (!open) { setOpen(true); return }
      if (count === 0) return
      // Down from the last goes round to the first, up from the first (or from none) to the last.
      if (event.key === 'ArrowDown') setActive((current) => (current + 1 >= count ? 0 : current + 1))
      else setActive((current) => (current <= 0 ? count - 1 : current - 1))
    } else if (event.key === 'Enter' && open && active >= 0 && options?.[active]) {
      // Enter on a suggestion chooses it; Enter otherwise submits the form with what is typed.
      event.preventDefault()
      choose(options[active]!)
    } else if (event.key === 'Escape' && open) {
      event.preventDefault()
      setOpen(false)
      setActive(-1)
    }
  }

  const shown = open && options !== null
  const activeId = shown && active >= 0 && active < (options?.length ?? 0) ? `${inputId}-option-${active}` : undefined
  return (
    <div className="tag-picker">
      <label htmlFor={inputId} className="visually-hidden">{label}</label>
      <input
        id={inputId} name={name} type="text" required={required} maxLength={60} autoComplete="off" spellCheck={false} placeholder={placeholder}
        role="combobox" aria-autocomplete="list" aria-expanded={shown && options.length > 0} aria-controls={listId} aria-activedescendant={activeId}
        aria-invalid={errorId ? true : undefined} aria-describedby={errorId ?? undefined}
        value={text}
        onChange={(event) => { setText(event.target.value); setOpen(true) }}
        onFocus={() => setOpen(true)}
        onBlur={() => { setOpen(false); setActive(-1) }}
        onKeyDown={onKeyDown}
      />
      <ul className="tag-picker__list" role="listbox" id={listId} aria-label="Tags" hidden={!shown || options.length === 0}>
        {(shown ? options : []).map((option, index) => (
          <li
            key={option.id} id={`${inputId}-option-${index}`} role="option" aria-selected={index === active}
            onMouseDown={(event) => { event.preventDefault(); choose(option) }}
          >
            {option.label}
          </li>
        ))}
      </ul>
      {shown && options.length === 0 && (
        <p className="tag-picker__none" role="status">{failed ? 'The tags could not be read. Type a tag’s whole name.' : `No tag’s name contains “${text.trim()}”.`}</p>
      )}
      {shown && options.length === SHOWN && <p className="visually-hidden" role="status">The first {SHOWN} tags; type more of a name to narrow them.</p>}
    </div>
  )
}
