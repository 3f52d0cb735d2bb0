// Chooses the type of a node being added: arrows, Home/End or a type's first letter (again for the next type with
// that letter), then Enter; Escape closes. Opens with the focus on the list so the keyboard path never needs a mouse.
import { useEffect, useId, useRef, useState } from 'react'
import type { KeyboardEvent } from 'react'
import { NODE_TYPES, type NodeType } from '../../src/engine/entity-types.ts'
import { nextTypeByLetter, typeIcon, typeLabel } from './fields.ts'

interface TypePickerProps {
  heading: string
  onChoose(type: NodeType): void
  onClose(): void
}

export function TypePicker({ heading, onChoose, onClose }: TypePickerProps) {
  const id = useId()
  const [index, setIndex] = useState(0)
  // The first letter looks from the top, so `c` picks Condition although Condition is already highlighted.
  const [moved, setMoved] = useState(false)
  const list = useRef<HTMLUListElement>(null)
  useEffect(() => list.current?.focus(), [])

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    event.stopPropagation()
    const key = event.key
    let next = index
    if (key === 'ArrowDown') next = Math.min(NODE_TYPES.length - 1, index + 1)
    else if (key === 'ArrowUp') next = Math.max(0, index - 1)
    else if (key === 'Home') next = 0
    else if (key === 'End') next = NODE_TYPES.length - 1
    else if (key === 'Enter') onChoose(NODE_TYPES[index]!)
    else if (key === 'Escape' || key === 'Tab') onClose()
    else if (key.length === 1 && /\p{L}/u.test(key)) next = nextTypeByLetter(moved ? index : -1, key)
    else return
    event.preventDefault()
    if (next >= 0) {
      setIndex(next)
      setMoved(true)
    }
  }

  return (
    <div className="rule-tree__picker">
      <p className="rule-tree__picker-heading" id={`${id}-heading`}>{heading}</p>
      <ul
        ref={list}
        role="listbox"
        tabIndex={0}
        aria-labelledby={`${id}-heading`}
        aria-activedescendant={`${id}-${index}`}
        onKeyDown={onKeyDown}
        onBlur={(event) => { if (!event.currentTarget.contains(event.relatedTarget)) onClose() }}
      >
        {NODE_TYPES.map((type, i) => (
          <li
            key={type}
            id={`${id}-${i}`}
            role="option"
            aria-selected={i === index}
            data-type={type}
            className="rule-tree__picker-option"
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => onChoose(type)}
          >
            <span className={`rule-tree__type-icon ${typeIcon(type)}`} aria-hidden="true" />
            {typeLabel(type)}
          </li>
        ))}
      </ul>
    </div>
  )
}
