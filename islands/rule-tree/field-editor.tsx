// One field of a node being edited: the input, the `{{`/`[[` typeahead, and the live issues of what is typed,
// each with its position marked under the text. Only this field re-renders on a keystroke.
import { memo, useId, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { ChangeEvent, KeyboardEvent, RefObject } from 'react'
import type { SourceSpan } from '../../src/engine/errors.ts'
import type { FieldSpec } from './fields.ts'
import { checkField, columnOf, type FieldIssue, type KnownNames, type MissingEntry } from './live-checks.ts'
import type { ApiRef, DictionaryEntry, RuleRef } from './props.ts'
import { insertReference, matchEntries, triggerAt, type Trigger } from './typeahead.ts'

export interface FieldEditorProps {
  field: FieldSpec
  value: string
  known: KnownNames
  entries: readonly DictionaryEntry[]
  rules: readonly RuleRef[]
  apis: readonly ApiRef[]
  serverError: string | null
  autoFocus: boolean
  /** Offers "Create variable X" on a name the dictionary lacks (edit mode). */
  onCreate?(missing: MissingEntry): void
  /** The name whose creation panel is open. */
  creating?: string | null
  onChange(name: FieldSpec['name'], value: string): void
  onSave(): void
  onCancel(): void
}

type Input = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement

/** Unknown names are worth a warning but the engine can still run the node; anything else stops the save. */
export function isBlocking(issue: FieldIssue): boolean {
  return !issue.code.startsWith('UNKNOWN_')
}

function SourceMark({ source, span }: { source: string; span: SourceSpan }) {
  const end = Math.max(span.end, span.start + 1)
  const marked = source.slice(span.start, end)
  return (
    <pre className="rule-tree__source" aria-hidden="true" data-column={columnOf(span)}>
      {source.slice(0, span.start)}
      <mark className="rule-tree__source-mark">{marked === '' ? ' ' : marked}</mark>
      {source.slice(end)}
    </pre>
  )
}

interface IssueListProps {
  issues: readonly FieldIssue[]
  source: string
  id: string
  onCreate?: ((missing: MissingEntry) => void) | undefined
  creating?: string | null | undefined
}

function IssueList({ issues, source, id, onCreate, creating }: IssueListProps) {
  return (
    <ul className="rule-tree__field-issues" id={id} aria-live="polite">
      {issues.map((issue, index) => (
        <li key={`${issue.code}-${index}`} className={`rule-tree__issue rule-tree__issue--${isBlocking(issue) ? 'error' : 'warning'}`} data-code={issue.code}>
          <span className="rule-tree__issue-message">{issue.message}</span>
          {issue.span && <span className="rule-tree__issue-at"> at column {columnOf(issue.span)}</span>}
          {issue.missing && onCreate && (
            <>
              {' '}
              <button type="button" className="rule-tree__create-offer" aria-expanded={creating === issue.missing.name}
                onMouseDown={(event) => event.preventDefault()} onClick={() => onCreate(issue.missing!)}>
                Create {issue.missing.kind} {issue.missing.name}
              </button>
            </>
          )}
          {issue.span && <SourceMark source={source} span={issue.span} />}
        </li>
      ))}
    </ul>
  )
}

export const FieldEditor = memo(function FieldEditor(props: FieldEditorProps) {
  const { field, value, known, entries, rules, apis, serverError, autoFocus, onCreate, creating, onChange, onSave, onCancel } = props
  const id = useId()
  const input = useRef<Input>(null)
  const [trigger, setTrigger] = useState<Trigger | null>(null)
  const [choice, setChoice] = useState(0)
  // Where the caret goes once an inserted reference is in the input: set before the next key is handled.
  const caretAfterInsert = useRef<number | null>(null)
  useLayoutEffect(() => {
    const element = input.current
    if (caretAfterInsert.current === null || !element || element instanceof HTMLSelectElement) return
    element.setSelectionRange(caretAfterInsert.current, caretAfterInsert.current)
    caretAfterInsert.current = null
  }, [value])
  const issues = useMemo(() => checkField(field.input, value, known), [field.input, value, known])
  const blocking = issues.some(isBlocking)
  const matches = useMemo(() => (trigger ? matchEntries(entries, trigger) : []), [entries, trigger])
  const open = trigger !== null && matches.length > 0
  const typeahead = field.input.kind === 'expression' || field.input.kind === 'template' || field.input.kind === 'name'

  const readTrigger = (element: Input) => {
    if (!typeahead || element instanceof HTMLSelectElement) return
    setTrigger(triggerAt(element.value, element.selectionStart ?? element.value.length))
    setChoice(0)
  }

  const onInput = (event: ChangeEvent<Input>) => {
    onChange(field.name, event.target.value)
    readTrigger(event.target)
  }

  const insert = (entry: DictionaryEntry) => {
    const element = input.current
    if (!trigger || !element || element instanceof HTMLSelectElement) return
    const next = insertReference(value, element.selectionStart ?? value.length, trigger, entry.name)
    caretAfterInsert.current = next.caret
    onChange(field.name, next.text)
    setTrigger(null)
  }

  const onKeyDown = (event: KeyboardEvent<Input>) => {
    event.stopPropagation()
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault()
        setChoice((current) => (current + (event.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length)
        return
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault()
        insert(matches[choice] ?? matches[0]!)
        return
      }
      if (event.key === 'Escape') {
        event.preventDefault()
        setTrigger(null)
        return
      }
    }
    if (event.key === 'Enter' && !(event.shiftKey && input.current instanceof HTMLTextAreaElement)) {
      event.preventDefault()
      onSave()
    } else if (event.key === 'Escape') {
      event.preventDefault()
      onCancel()
    }
  }

  const describedBy = [issues.length > 0 ? `${id}-issues` : '', serverError ? `${id}-server` : ''].filter(Boolean).join(' ') || undefined
  const common = {
    id: `${id}-input`,
    className: 'rule-tree__input',
    name: field.name,
    autoFocus,
    'aria-invalid': blocking || serverError !== null,
    'aria-describedby': describedBy,
    onKeyDown,
    onBlur: () => setTrigger(null),
  }
  const combobox = typeahead
    ? {
      role: 'combobox', 'aria-autocomplete': 'list' as const, 'aria-expanded': open, 'aria-controls': `${id}-options`,
      'aria-activedescendant': open ? `${id}-option-${choice}` : undefined,
      onSelect: (event: { currentTarget: Input }) => readTrigger(event.currentTarget),
    }
    : {}

  let control
  if (field.input.kind === 'rule') {
    control = (
      <select {...common} ref={input as RefObject<HTMLSelectElement>} value={value} onChange={onInput}>
        <option value="">Choose a rule…</option>
        {rules.map((rule) => (
          <option key={rule.id} value={rule.id}>{rule.adviceSetName ? `${rule.name} (${rule.adviceSetName})` : rule.name}</option>
        ))}
      </select>
    )
  } else if (field.input.kind === 'api') {
    // A node may name an id the list does not hold (another owner's, or a deleted definition): it stays choosable.
    const listed = apis.some((api) => api.id === value)
    control = (
      <select {...common} ref={input as RefObject<HTMLSelectElement>} value={value} onChange={onInput}>
        <option value="">Choose an external API…</option>
        {apis.map((api) => (
          <option key={api.id} value={api.id}>{api.variables.length > 0 ? `${api.name} (${api.variables.map((v) => `{{${v}}}`).join(', ')})` : api.name}</option>
        ))}
        {value !== '' && !listed && <option value={value}>{value} (not one of this team’s external APIs)</option>}
      </select>
    )
  } else if (field.input.kind === 'template' && field.input.multiline) {
    control = <textarea {...common} {...combobox} ref={input as RefObject<HTMLTextAreaElement>} rows={3} value={value} onChange={onInput} />
  } else {
    control = <input {...common} {...combobox} ref={input as RefObject<HTMLInputElement>} type="text" autoComplete="off" spellCheck={false} value={value} onChange={onInput} />
  }

  return (
    <div className="rule-tree__field" data-field={field.name}>
      <label className="rule-tree__label" htmlFor={`${id}-input`}>{field.label}</label>
      <div className="rule-tree__control">
        {control}
        {open && (
          <ul className="rule-tree__typeahead" role="listbox" id={`${id}-options`} aria-label={trigger.kind === 'variable' ? 'Variables' : 'Formulas'}>
            {matches.map((entry, index) => (
              <li
                key={entry.id}
                id={`${id}-option-${index}`}
                role="option"
                aria-selected={index === choice}
                data-entity-id={entry.id}
                data-entity-name={entry.name}
                onMouseDown={(event) => { event.preventDefault(); insert(entry) }}
              >
                {entry.name}
                {entry.dataType && <span className="rule-tree__typeahead-type">{entry.dataType}</span>}
              </li>
            ))}
          </ul>
        )}
      </div>
      {issues.length > 0 && <IssueList issues={issues} source={value} id={`${id}-issues`} onCreate={onCreate} creating={creating} />}
      {serverError && <p className="rule-tree__server-error" id={`${id}-server`} role="alert">{serverError}</p>}
    </div>
  )
})
