// The api-definition island's props (views/externalapi/form.eta): the definition as the form holds it.
import { InvalidPropsError } from '../shared/invalid-props.ts'
import { isRecord } from '../shared/guards.ts'

export interface HeaderRow { name: string; value: string; secret: boolean }
export interface MappingRow { path: string; variable: string; dataType: string }

export interface DefinitionValues {
  name: string
  method: string
  urlTemplate: string
  headers: HeaderRow[]
  bodyTemplate: string
  timeoutMs: string
  cacheTtlSeconds: string
  responseMapping: MappingRow[]
  sampleResponse: string
}

export interface TestResult {
  request: { method: string; url: string; headers: Record<string, string>; body: string | null }
  response: { status: number; timeMs: number | null; headers: Record<string, string>; body: string } | null
  error: { code: string; message: string } | null
  mapped: Array<{ variable: string; path: string; valueText: string | null; error: string | null }>
}

export interface ApiDefinitionProps {
  /** Null for a definition not saved yet. */
  id: number | null
  values: DefinitionValues
  /** Names of secret headers whose values are stored (an empty value keeps them). */
  storedSecrets: string[]
  inputs: Record<string, string>
  methods: string[]
  dataTypes: string[]
  test: TestResult | null
  canWrite: boolean
}

const text = (raw: unknown, fallback = '') => (typeof raw === 'string' ? raw : typeof raw === 'number' ? String(raw) : fallback)
const texts = (raw: unknown) => (Array.isArray(raw) ? raw.filter((v): v is string => typeof v === 'string') : [])

export function parseApiDefinitionProps(raw: unknown): ApiDefinitionProps {
  if (!isRecord(raw) || !isRecord(raw.values)) throw new InvalidPropsError('api-definition needs the definition’s values')
  const v = raw.values
  const rows = (list: unknown) => (Array.isArray(list) ? list.filter(isRecord) : [])
  return {
    id: typeof raw.id === 'number' ? raw.id : null,
    values: {
      name: text(v.name), method: text(v.method, 'GET'), urlTemplate: text(v.urlTemplate), bodyTemplate: text(v.bodyTemplate),
      timeoutMs: text(v.timeoutMs, '5000'), cacheTtlSeconds: text(v.cacheTtlSeconds, '300'), sampleResponse: text(v.sampleResponse),
      headers: rows(v.headers).map((h) => ({ name: text(h.name), value: text(h.value), secret: h.secret === true || h.secret === 'on' })),
      responseMapping: rows(v.responseMapping).map((m) => ({ path: text(m.path), variable: text(m.variable), dataType: text(m.dataType, 'freetext') })),
    },
    storedSecrets: texts(raw.storedSecrets),
    inputs: isRecord(raw.inputs) ? Object.fromEntries(Object.entries(raw.inputs).map(([k, val]) => [k, text(val)])) : {},
    methods: texts(raw.methods),
    dataTypes: texts(raw.dataTypes),
    test: isRecord(raw.test) ? (raw.test as unknown as TestResult) : null,
    canWrite: raw.canWrite !== false,
  }
}
