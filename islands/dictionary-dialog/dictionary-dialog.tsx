// On /admin/dictionary, the New and Edit links (`a[data-card-open]`, which go to the card pages without JavaScript)
// open the entry form in a modal <dialog>. A saved edit updates its table row in place (entity-sync renames the
// name); a new entry reloads the list so it appears in order.
import { useEffect, useId, useRef, useState } from 'react'
import { ENTITY_TYPES } from '../../src/engine/entity-types.ts'
import { callApi } from '../shared/api.ts'
import { isRecord } from '../shared/guards.ts'
import { notify } from '../shared/notify.ts'
import { EntityForm } from '../dictionary-editor/entity-form.tsx'
import type { SavedEntity } from '../dictionary-editor/entity-form.tsx'
import { emptyValues, isKind, valuesOfEntity } from '../dictionary-editor/values.ts'
import type { EntityFormValues } from '../dictionary-editor/values.ts'
import type { DictionaryDialogProps } from './props.ts'

interface Opened { entityId: number | null; values: EntityFormValues }

function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey
}

export function DictionaryDialog({ adviceSets, dataTypes }: DictionaryDialogProps) {
  const headingId = useId()
  const dialog = useRef<HTMLDialogElement>(null)
  const [opened, setOpened] = useState<Opened | null>(null)

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[data-card-open]') : null
      if (!link || event.defaultPrevented || !isPlainClick(event)) return
      event.preventDefault()
      const which = link.dataset.cardOpen
      if (which === 'new') {
        setOpened({ entityId: null, values: emptyValues(isKind(link.dataset.kind) ? link.dataset.kind : 'variable') })
        return
      }
      callApi(`/api/entity/${which}`).then((response) => {
        const entity = isRecord(response) && isRecord(response.data) ? response.data : {}
        setOpened({ entityId: Number(which), values: valuesOfEntity(entity) })
      }, (error: unknown) => notify({ type: 'error', text: error instanceof Error ? error.message : String(error) }))
    }
    document.addEventListener('click', onClick)
    return () => document.removeEventListener('click', onClick)
  }, [])

  useEffect(() => {
    if (opened && !dialog.current?.open) dialog.current?.showModal()
  }, [opened])

  const close = () => dialog.current?.close()

  function updateRow(entity: SavedEntity) {
    const row = document.querySelector(`[data-entity-row="${entity.id}"]`)
    const cell = (name: string, text: string) => {
      const element = row?.querySelector(`[data-cell="${name}"]`)
      if (element) element.textContent = text
    }
    const v = entity.values
    cell('kind', ENTITY_TYPES[v.kind].displayName)
    cell('dataType', dataTypes.find((d) => d.value === v.dataType)?.label ?? '')
    cell('options', v.validOptions.split(/\r?\n/).map((o) => o.trim()).filter(Boolean).join(', ') + (v.isClosedSet ? ' (closed)' : ''))
    cell('format', v.displayFormat)
    cell('set', v.adviceSetId === '' ? 'All' : adviceSets.find((s) => String(s.id) === v.adviceSetId)?.name ?? '')
  }

  const title = opened ? `${opened.entityId === null ? 'New' : 'Edit'} ${ENTITY_TYPES[opened.values.kind].displayName.toLowerCase()}` : ''
  return (
    <dialog ref={dialog} className="entity-dialog" aria-labelledby={headingId} onClose={() => setOpened(null)}>
      {opened && (
        <>
          <div className="entity-dialog__head">
            <h2 id={headingId}>{title}</h2>
            <button type="button" className="link-button" onClick={close}>Close</button>
          </div>
          <EntityForm key={opened.entityId ?? `new-${opened.values.kind}`} entityId={opened.entityId} original={opened.values}
            adviceSets={adviceSets} dataTypes={dataTypes}
            onCreated={() => window.location.reload()}
            onSaved={(entity) => { updateRow(entity); close() }}
            cancel={<button type="button" onClick={close}>Cancel</button>} />
        </>
      )}
    </dialog>
  )
}
