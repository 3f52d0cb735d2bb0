// A node's fields in edit mode (types without fields are never edited). Enter saves (Shift+Enter is a new line in advice text), Escape cancels; the save
// waits while a field has an error the server would refuse anyway.
import { useCallback, useState } from 'react'
import { FieldEditor } from './field-editor.tsx'
import { fieldsOf, fieldValues, type FieldName, type FieldValues } from './fields.ts'
import type { KnownNames } from './live-checks.ts'
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
}

export function NodeEditor({ node, known, entries, rules, apis, serverError, saving, onSave, onCancel }: NodeEditorProps) {
  const fields = fieldsOf(node.type)
  const [values, setValues] = useState(() => fieldValues(node))
  const [blocked, setBlocked] = useState<ReadonlySet<FieldName>>(new Set())
  const onChange = useCallback((name: FieldName, value: string) => setValues((current) => {
    // Choosing an API fills the receiving variable with the first one it maps, when none is given yet.
    const mapped = name === 'apiId' && !current.variable ? apis.find((api) => api.id === value)?.variables[0] : undefined
    return mapped ? { ...current, [name]: value, variable: mapped } : { ...current, [name]: value }
  }), [apis])
  const onIssues = useCallback((name: FieldName, blocking: boolean) => setBlocked((current) => {
    if (current.has(name) === blocking) return current
    const next = new Set(current)
    if (blocking) next.add(name)
    else next.delete(name)
    return next
  }), [])
  const save = useCallback(() => {
    if (blocked.size === 0 && !saving) onSave(node, values)
  }, [blocked, saving, onSave, node, values])
  const cancel = useCallback(() => onCancel(node), [onCancel, node])
  const errorFor = (name: FieldName) => (serverError && (serverError.field === name || (serverError.field === null && name === fields[0]?.name)) ? serverError.message : null)
  const unplaced = serverError && serverError.field !== null && !fields.some((field) => field.name === serverError.field) ? serverError.message : null

  return (
    <div className="rule-tree__editor" data-editing-node={node.id} onKeyDown={(event) => event.stopPropagation()}>
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
          onChange={onChange}
          onIssues={onIssues}
          onSave={save}
          onCancel={cancel}
        />
      ))}
      {unplaced && <p className="rule-tree__server-error" role="alert">{unplaced}</p>}
      <p className="rule-tree__editor-actions">
        <button type="button" className="rule-tree__editor-save" disabled={saving || blocked.size > 0} onClick={save}>Save</button>
        <button type="button" className="rule-tree__editor-cancel" onClick={cancel}>Cancel</button>
        <span className="rule-tree__editor-hint">Enter saves, Escape cancels</span>
      </p>
    </div>
  )
}
