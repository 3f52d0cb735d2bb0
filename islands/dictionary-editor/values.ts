// The dictionary entry form's values, free of React: what the form shows, what /api/entity receives, and which
// field a server message is about. The same mapping as the card page's form posts (src/http/pages/card.ts).
import { ENTITY_TYPES } from '../../src/engine/entity-types.ts'
import { isRecord } from '../shared/guards.ts'

export type Kind = 'variable' | 'formula'

export interface EntityFormValues {
  kind: Kind; reservedName: string; dataType: string; validOptions: string; isClosedSet: boolean; displayFormat: string
  defaultValue: string; expression: string; isConstant: boolean; personal: boolean; description: string; adviceSetId: string
}

export const FIELD_NAMES: ReadonlyArray<keyof EntityFormValues> = [
  'kind', 'reservedName', 'dataType', 'validOptions', 'isClosedSet', 'displayFormat', 'defaultValue', 'expression', 'isConstant', 'personal', 'description', 'adviceSetId',
]

export function isKind(value: unknown): value is Kind {
  return value === 'variable' || value === 'formula'
}

export function emptyValues(kind: Kind): EntityFormValues {
  return {
    kind, reservedName: '', dataType: '', validOptions: '', isClosedSet: false, displayFormat: '', defaultValue: '', expression: '',
    isConstant: false, personal: false, description: '', adviceSetId: '',
  }
}

const textOf = (value: unknown) => (typeof value === 'string' ? value : '')

/** An entry as GET /api/entity/{id} returns it, as the form shows it. */
export function valuesOfEntity(entity: Record<string, unknown>): EntityFormValues {
  const defaultValue = entity.defaultValue
  return {
    kind: entity.entityTypeId === ENTITY_TYPES.formula.id ? 'formula' : 'variable',
    reservedName: textOf(entity.reservedName), dataType: textOf(entity.dataType),
    validOptions: Array.isArray(entity.validOptions) ? entity.validOptions.join('\n') : '', isClosedSet: entity.isClosedSet === true,
    displayFormat: textOf(entity.displayFormat),
    defaultValue: defaultValue === null || defaultValue === undefined ? '' : Array.isArray(defaultValue) ? defaultValue.join(', ') : String(defaultValue),
    expression: textOf(entity.expression), isConstant: entity.isConstant === true, personal: entity.personal === true, description: textOf(entity.description),
    adviceSetId: typeof entity.adviceSetId === 'number' ? String(entity.adviceSetId) : '',
  }
}

/** The body of POST /api/entity or PATCH /api/entity/{id}. */
export function apiBody(values: EntityFormValues): Record<string, unknown> {
  return {
    entityTypeId: ENTITY_TYPES[values.kind].id,
    reservedName: values.reservedName,
    dataType: values.dataType || null,
    validOptions: values.validOptions.split(/\r?\n/).map((o) => o.trim()).filter(Boolean),
    isClosedSet: values.isClosedSet,
    displayFormat: values.displayFormat.trim() || null,
    defaultValue: values.defaultValue.trim() === '' ? null : values.defaultValue,
    expression: values.kind === 'formula' ? values.expression.trim() || null : null,
    isConstant: values.isConstant,
    // Formulas cannot be personal: switching the kind to formula drops the flag rather than failing the save.
    personal: values.kind === 'variable' && values.personal,
    description: values.description,
    adviceSetId: values.adviceSetId === '' ? null : Number(values.adviceSetId),
  }
}

/** The form's field for a field the server refused (`error.fields`), if the form has it. */
export function formFieldOf(field: string): keyof EntityFormValues | null {
  if (field === 'entityTypeId') return 'kind'
  return FIELD_NAMES.find((name) => name === field) ?? null
}

export function sameValues(a: EntityFormValues, b: EntityFormValues): boolean {
  return FIELD_NAMES.every((field) => a[field] === b[field])
}

export interface Choice { value: string; label: string }
export interface SetChoice { id: number; name: string }

export function parseChoices(raw: unknown): { adviceSets: SetChoice[]; dataTypes: Choice[] } {
  const list = (value: unknown) => (Array.isArray(value) ? value.filter(isRecord) : [])
  return {
    adviceSets: list(isRecord(raw) ? raw.adviceSets : undefined).map((s) => ({ id: Number(s.id), name: textOf(s.name) })),
    dataTypes: list(isRecord(raw) ? raw.dataTypes : undefined).map((d) => ({ value: textOf(d.value), label: textOf(d.label) })),
  }
}
