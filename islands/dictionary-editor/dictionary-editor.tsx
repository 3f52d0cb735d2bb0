// The card page's form (/card/{type}, /card/{type}/{id}/edit): a new entry opens its card once created; an edited
// one stays on the page, where entity-sync renames what shows it.
import { EntityForm } from './entity-form.tsx'
import type { DictionaryEditorProps } from './props.ts'

export function DictionaryEditor({ entityId, values, typed, errors, adviceSets, dataTypes }: DictionaryEditorProps) {
  const cardUrl = entityId === null ? '/admin/dictionary' : `/card/${values.kind}/${entityId}`
  return (
    <EntityForm entityId={entityId} original={values} typed={typed} errors={errors} adviceSets={adviceSets} dataTypes={dataTypes}
      onCreated={(entity) => window.location.assign(`/card/${entity.values.kind}/${entity.id}`)}
      cancel={<a href={cardUrl}>{entityId === null ? 'Cancel' : 'Back to the card'}</a>} />
  )
}
