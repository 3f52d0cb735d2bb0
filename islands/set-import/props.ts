// The import page's island: the sets the person may import into, and the caps of each kind of file.
import { InvalidPropsError } from '../shared/invalid-props.ts'
import { isRecord } from '../shared/guards.ts'

export interface WritableSet { id: number; name: string }

export interface SetImportProps {
  sets: WritableSet[]
  /** The set chosen on arrival (the page's ?into=), or null for a new set. */
  into: number | null
  maxSetBytes: number
  maxTableBytes: number
}

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0

export function parseSetImportProps(raw: unknown): SetImportProps {
  if (!isRecord(raw) || !Array.isArray(raw.sets) || !isId(raw.maxSetBytes) || !isId(raw.maxTableBytes)) throw new InvalidPropsError('set-import needs sets and the file caps')
  const sets = raw.sets.map((s) => {
    if (!isRecord(s) || !isId(s.id) || typeof s.name !== 'string') throw new InvalidPropsError('set-import: every set needs an id and a name')
    return { id: s.id, name: s.name }
  })
  return { sets, into: isId(raw.into) ? raw.into : null, maxSetBytes: raw.maxSetBytes, maxTableBytes: raw.maxTableBytes }
}
