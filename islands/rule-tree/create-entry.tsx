// "Create variable Income" in place: a name a node uses that the dictionary lacks is added to it from the node
// editor, without leaving the tree. A variable gets its data type, its options (Select, Radio) and, when the node
// reads it, a question (an Input Request asking for it, placed just before the node); a formula gets its expression
// (a Formula node's own Expression field, or one typed here). The entry is made by /api/entity (dictionary.ts).
import { useId, useState } from 'react'
import type { KeyboardEvent } from 'react'
import { DATA_TYPE_CHOICES, takesOptions, type NewEntry } from './dictionary.ts'
import type { MissingEntry } from './live-checks.ts'

export interface CreateRequest { entry: NewEntry; question: string | null }

interface CreateEntryProps {
  missing: MissingEntry
  /** The type to start with (an API Call's mapped type). */
  dataType?: string
  /** A Formula node's expression, typed in its own field: the formula is created with it. */
  expression?: string
  /** Offer a question (the node reads the variable, so something must ask for it). */
  offerQuestion: boolean
  onCreate(request: CreateRequest): Promise<void>
  onCancel(): void
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

export function CreateEntry({ missing, dataType: initialType, expression: givenExpression, offerQuestion, onCreate, onCancel }: CreateEntryProps) {
  const id = useId()
  const isFormula = missing.kind === 'formula'
  const [dataType, setDataType] = useState(initialType ?? (isFormula ? 'number' : ''))
  const [options, setOptions] = useState('')
  const [expression, setExpression] = useState('')
  const [question, setQuestion] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [creating, setCreating] = useState(false)
  const written = isFormula ? `[[${missing.name}]]` : `{{${missing.name}}}`
  const label = `Create ${missing.kind} ${missing.name}`
  const formulaExpression = givenExpression ?? expression
  const missingExpression = isFormula && formulaExpression.trim() === ''

  const create = async () => {
    if (creating) return
    if (missingExpression) {
      setError(givenExpression === undefined ? 'Type the expression that computes it.' : 'Type its expression in the Expression field first.')
      return
    }
    setCreating(true)
    setError(null)
    try {
      await onCreate({
        entry: { kind: missing.kind, name: missing.name, dataType, options, expression: isFormula ? formulaExpression : '' },
        question: offerQuestion && question.trim() !== '' ? question.trim() : null,
      })
    } catch (failure) {
      setError(messageOf(failure))
      setCreating(false)
    }
  }

  // The panel's keys are its own: Enter creates, Escape closes the panel (not the node editor around it).
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    event.stopPropagation()
    if (event.key === 'Escape') {
      event.preventDefault()
      onCancel()
    } else if (event.key === 'Enter' && !(event.target instanceof HTMLTextAreaElement)) {
      event.preventDefault()
      void create()
    }
  }

  return (
    <div className="rule-tree__create" role="group" aria-labelledby={`${id}-heading`} data-create-entry={missing.name} onKeyDown={onKeyDown}>
      <p className="rule-tree__create-heading" id={`${id}-heading`}>{label}: add <code>{written}</code> to the dictionary</p>
      <div className="rule-tree__create-fields">
        <label className="rule-tree__create-field">
          <span>Data type</span>
          <select value={dataType} autoFocus onChange={(event) => setDataType(event.target.value)}>
            <option value="">Not set</option>
            {DATA_TYPE_CHOICES.map((choice) => <option key={choice.value} value={choice.value}>{choice.label}</option>)}
          </select>
        </label>
        {!isFormula && takesOptions(dataType) && (
          <label className="rule-tree__create-field">
            <span>Options</span>
            <textarea rows={3} value={options} onChange={(event) => setOptions(event.target.value)} aria-describedby={`${id}-options-hint`} />
            <span className="rule-tree__create-hint" id={`${id}-options-hint`}>One per line; answers must be one of them.</span>
          </label>
        )}
        {isFormula && givenExpression === undefined && (
          <label className="rule-tree__create-field rule-tree__create-field--wide">
            <span>Expression</span>
            <input type="text" value={expression} spellCheck={false} autoComplete="off" placeholder="e.g. {{Debts}} / {{Income}}" onChange={(event) => setExpression(event.target.value)} />
          </label>
        )}
        {isFormula && givenExpression !== undefined && (
          <p className="rule-tree__create-field rule-tree__create-field--wide">
            <span>Expression</span> {givenExpression.trim() ? <code>{givenExpression}</code> : <em>type it in the Expression field above</em>}
          </p>
        )}
        {offerQuestion && (
          <label className="rule-tree__create-field rule-tree__create-field--wide">
            <span>Question (optional)</span>
            <input type="text" value={question} autoComplete="off" placeholder={`e.g. What is your ${missing.name.replaceAll('_', ' ').toLowerCase()}?`}
              onChange={(event) => setQuestion(event.target.value)} aria-describedby={`${id}-question-hint`} />
            <span className="rule-tree__create-hint" id={`${id}-question-hint`}>Adds an Input Request asking for it just before this node.</span>
          </label>
        )}
      </div>
      {error && <p className="rule-tree__server-error" role="alert">{error}</p>}
      <p className="rule-tree__create-actions">
        <button type="button" className="rule-tree__create-save" disabled={creating} onClick={() => void create()}>{creating ? 'Creating…' : `Create ${missing.kind}`}</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </p>
    </div>
  )
}
