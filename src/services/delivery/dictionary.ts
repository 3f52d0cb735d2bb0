// /api/dictionary: the variables of the key's owner, so a partner knows what to send and how. Entries made for
// one advice set are listed only when the key may use that set.
import type { Db } from '../../db/client.ts'
import { listEntities } from '../../db/queries/entities.ts'
import { ENTITY_TYPES, isDataType, type DataType } from '../../engine/index.ts'
import type { AuthenticatedKey } from './api-keys.ts'

export interface DictionaryVariable {
  name: string
  dataType: DataType | null
  validOptions: string[]
  isClosedSet: boolean
  displayFormat: string | null
  description: string
  isConstant: boolean
  /** The advice set the entry belongs to; null for the owner's general entries. */
  adviceSetId: number | null
}

export async function partnerDictionary(db: Db, key: AuthenticatedKey): Promise<DictionaryVariable[]> {
  const rows = await listEntities(db, { ownerIds: [key.ownerId], entityTypeIds: [ENTITY_TYPES.variable.id] })
  const allowed = key.allowedAdviceSetIds
  return rows
    .filter((row) => row.adviceSetId === null || allowed.length === 0 || allowed.includes(row.adviceSetId))
    .map((row) => ({
      name: row.reservedName,
      dataType: isDataType(row.dataType) ? row.dataType : null,
      validOptions: row.validOptions,
      isClosedSet: row.isClosedSet,
      displayFormat: row.displayFormat,
      description: row.description,
      isConstant: row.isConstant,
      adviceSetId: row.adviceSetId,
    }))
}
