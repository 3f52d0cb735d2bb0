// A node's fields in edit mode (types without fields are never edited). Enter saves (Shift+Enter is a new line in advice text), Escape cancels; the save
// waits while a field has an error the server would refuse anyway. A name the dictionary lacks is offered for creation
// in place (create-entry.tsx). A Formula node's expression is its dictionary formula's, the one definition: the editor
// shows it, saves a change to the dictionary, and says where the formula lives.
import { useCallback, useMemo, useRef, useState } from 'react'
import { CreateEntry, type CreateRequest } from './create-entry.tsx'
import { FieldEditor, isBlocking } from './field-editor.tsx'
import { useFocusFirstInvalid } from '../shared/field-errors.ts'
import { fieldsOf, fieldValues, type FieldName, type FieldValues } from './fields.ts'
import { checkField, type KnownNames, type MissingEntry } from './live-checks.ts'
import type { ApiRef, DictionaryEntry, RuleRef, TreeNode } from './props.ts'

export interface ServerError { field: string | null; message: string }

interface NodeEditorProps {
  node: TreeNode
  known: KnownNames
  entries: readonly DictionaryEntry[]
  rules: readonly RuleRef[]
  apis: readonly ApiRef[]
  serverError: ServerError | null
  saving: boolean
  onSave(node: TreeNode, values: FieldValues): void
  onCancel(node: TreeNode): void
  /** Adds a missing name to the dictionary (and, with a question, an Input Request for it before the node). */
  onCreateEntry(node: TreeNode, request: CreateRequest): Promise<void>
  /** Saves a formula's expression in the dictionary. */
  onSetFormulaExpression(formula: DictionaryEntry, expression: string): Promise<void>
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

function formulaNamed(entries: readonly DictionaryEntry[], name: string | undefined): DictionaryEntry | undefined {
  return name ? entries.find((entry) => entry.kind === 'formula' && entry.name === name.trim()) : undefined
}

export function NodeEditor({ node, known, entries, rules, apis, serverError, saving, onSave, onCancel, onCreateEntry, onSetFormulaExpression }: NodeEditorProps) {
  const fields = fieldsOf(node.type)
  const isFormulaNode = node.type === 'formula'
  const [values, setValues] = useState(() => fieldValues(node, formulaNamed(entries, node.variable ?? undefined)?.expression ?? null))
  const [creating, setCreating] = useState<MissingEntry | null>(null)
  const [dictionaryError, setDictionaryError] = useState<string | null>(null)
  const [savingFormula, setSavingFormula] = useState(false)
  // The dictionary expression the Expression field was filled with: while the author has not changed it, naming
  // another formula shows that one's.
  const filledExpression = useRef(values.expression ?? '')
  const formula = isFormulaNode ? formulaNamed(entries, values.variable) : undefined
  // A Formula node's expression lives in its dictionary formula: with none yet, saving would lose what was typed.
  const formulaMissing = isFormulaNode && !formula && (values.expression ?? '').trim() !== ''
  const ownExpression = isFormulaNode && node.expression && formula && node.expression.trim() !== (formula.expression ?? '').trim() ? node.expression : null

  const onChange = useCallback((name: FieldName, value: string) => {
    if (name === 'expression') setDictionaryError(null)
    setValues((current) => {
      // Choosing an API fills the receiving variable with the first one it maps, when none is given yet.
      const mapped = name === 'apiId' && !current.variable ? apis.find((api) => api.id === value)?.variables[0] : undefined
      if (mapped) return { ...current, [name]: value, variable: mapped }
      if (isFormulaNode && name === 'variable' && (current.expression ?? '') === filledExpression.current) {
        const shown = formulaNamed(entries, value)?.expression ?? ''
        filledExpression.current = shown
        return { ...current, variable: value, expression: shown }
      }
      return { ...current, [name]: value }
    })
  }, [apis, entries, isFormulaNode])
  // Worked out from the values of this render, not reported by the fields in an effect: Enter pressed right after the
  // last key must see that key's value, or the save is refused by the error of the value before it.
  const blocked = fields.some((field) => checkField(field.input, values[field.name] ?? '', known).some(isBlocking))
  const busy = saving || savingFormula
  const save = useCallback(async () => {
    if (blocked || busy || formulaMissing) return
    const typed = values.expression ?? ''
    if (formula && typed.trim() !== (formula.expression ?? '').trim()) {
      setSavingFormula(true)
      try {
        await onSetFormulaExpression(formula, typed)
      } catch (error) {
        setDictionaryError(messageOf(error))
        return
      } finally {
        setSavingFormula(false)
      }
    }
    onSave(node, values)
  }, [blocked, busy, formulaMissing, formula, values, onSetFormulaExpression, onSave, node])
  const saveNow = useCallback(() => void save(), [save])
  const cancel = useCallback(() => onCancel(node), [onCancel, node])
  const offerCreate = useCallback((missing: MissingEntry) => setCreating((open) => (open?.name === missing.name ? null : missing)), [])
  const create = useCallback(async (request: CreateRequest) => {
    await onCreateEntry(node, request)
    setCreating(null)
  }, [onCreateEntry, node])
  const errorFor = (name: FieldName) => {
    if (name === 'expression' && dictionaryError) return dictionaryError
    return serverError && (serverError.field === name || (serverError.field === null && name === fields[0]?.name)) ? serverError.message : null
  }
  const unplaced = serverError && serverError.field !== null && !fields.some((field) => field.name === serverError.field) ? serverError.message : null
  // A refused save leaves the focus in the field it refused, not on the button that saved.
  const editor = useRef<HTMLDivElement>(null)
  const refused = useMemo(() => (serverError ? { [serverError.field ?? '']: serverError.message } : {}), [serverError])
  useFocusFirstInvalid(editor, refused)
  const mappedType = useMemo(() => (creating && node.type === 'apiCall' ? apis.find((api) => api.id === values.apiId)?.dataTypes[creating.name] : undefined), [creating, node.type, apis, values.apiId])

  return (
    <div ref={editor} className="rule-tree__editor" data-editing-node={node.id} onKeyDown={(event) => event.stopPropagation()}>
      {fields.map((field, index) => (
        <FieldEditor
          key={field.name}
          field={field}
          value={values[field.name] ?? ''}
          known={known}
          entries={entries}
          rules={rules}
          apis={apis}
          serverError={errorFor(field.name)}
          autoFocus={index === 0}
          onCreate={offerCreate}
          creating={creating?.name ?? null}
          onChange={onChange}
          onSave={saveNow}
          onCancel={cancel}
        />
      ))}
      {creating && (
        <CreateEntry
          key={`${creating.kind}:${creating.name}`}
          missing={creating}
          {...(mappedType ? { dataType: mappedType } : {})}
          {...(isFormulaNode && creating.kind === 'formula' && creating.name === values.variable?.trim() ? { expression: values.expression ?? '' } : {})}
          offerQuestion={creating.kind === 'variable' && creating.read}
          onCreate={create}
          onCancel={() => setCreating(null)}
        />
      )}
      {formula && (
        <p className="rule-tree__defined" data-defined-in="dictionary">
          Defined in the dictionary: <a href={`/card/formula/${formula.id}`}>[[{formula.name}]]</a>. Its expression is kept there, so a change
          here changes [[{formula.name}]] wherever it is used.
          {ownExpression && <> This node had an expression of its own (<code>{ownExpression}</code>): saving makes the one above the dictionary’s.</>}
        </p>
      )}
      {formulaMissing && <p className="rule-tree__defined" role="note">Create [[{values.variable?.trim()}]] in the dictionary first: its expression is kept there.</p>}
      {unplaced && <p className="rule-tree__server-error" role="alert">{unplaced}</p>}
      <p className="rule-tree__editor-actions">
        <button type="button" className="rule-tree__editor-save" disabled={busy || blocked || formulaMissing} onClick={saveNow}>Save</button>
        <button type="button" className="rule-tree__editor-cancel" onClick={cancel}>Cancel</button>
        <span className="rule-tree__editor-hint">Enter saves, Escape cancels</span>
      </p>
    </div>
  )
}
