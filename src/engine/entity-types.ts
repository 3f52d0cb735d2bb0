// SPEC §3 entity types and the engine's fixed vocabulary. Ids are stable: they are stored with entities and
// used by search facets, so never renumber an entry.

export type EntityTypeKey =
  | 'advice'
  | 'apiCall'
  | 'condition'
  | 'conditionAlways'
  | 'formula'
  | 'inputRequest'
  | 'ruleCall'
  | 'ruleExit'
  | 'adviceSet'
  | 'adviceCategory'
  | 'rule'
  | 'variable'
  | 'variableAssignment'

export interface EntityType {
  readonly id: number
  readonly key: EntityTypeKey
  /** Internal name as the legacy vocabulary spells it (RULESET, TOPIC). */
  readonly name: string
  readonly displayName: string
  readonly plural: string
  /** How the type reads inside a sentence, e.g. "an input request". */
  readonly sentence: string
  readonly iconClass: string
}

export const ENTITY_TYPES: Readonly<Record<EntityTypeKey, EntityType>> = {
  advice: { id: 1, key: 'advice', name: 'ADVICE', displayName: 'Advice', plural: 'Advice', sentence: 'an advice', iconClass: 'icon-advice' },
  apiCall: { id: 2, key: 'apiCall', name: 'API_CALL', displayName: 'API Call', plural: 'API Calls', sentence: 'an API call', iconClass: 'icon-api-call' },
  condition: { id: 3, key: 'condition', name: 'CONDITION', displayName: 'Condition', plural: 'Conditions', sentence: 'a condition', iconClass: 'icon-condition' },
  conditionAlways: { id: 4, key: 'conditionAlways', name: 'CONDITION_ALWAYS', displayName: 'Condition (Always)', plural: 'Conditions (Always)', sentence: 'an always-true condition', iconClass: 'icon-condition-always' },
  formula: { id: 5, key: 'formula', name: 'FORMULA', displayName: 'Formula', plural: 'Formulas', sentence: 'a formula [[ ]]', iconClass: 'icon-formula' },
  inputRequest: { id: 6, key: 'inputRequest', name: 'INPUT_REQUEST', displayName: 'Input Request', plural: 'Input Requests', sentence: 'an input request', iconClass: 'icon-input-request' },
  ruleCall: { id: 7, key: 'ruleCall', name: 'RULE_CALL', displayName: 'Rule Call', plural: 'Rule Calls', sentence: 'a rule call', iconClass: 'icon-rule-call' },
  ruleExit: { id: 8, key: 'ruleExit', name: 'RULE_EXIT', displayName: 'Rule Exit', plural: 'Rule Exits', sentence: 'a rule exit', iconClass: 'icon-rule-exit' },
  adviceSet: { id: 9, key: 'adviceSet', name: 'RULESET', displayName: 'Advice Set', plural: 'Advice Sets', sentence: 'an advice set', iconClass: 'icon-advice-set' },
  adviceCategory: { id: 10, key: 'adviceCategory', name: 'CATEGORY', displayName: 'Advice Category', plural: 'Advice Categories', sentence: 'an advice category', iconClass: 'icon-advice-category' },
  rule: { id: 11, key: 'rule', name: 'TOPIC', displayName: 'Rule', plural: 'Rules', sentence: 'a rule', iconClass: 'icon-rule' },
  variable: { id: 12, key: 'variable', name: 'VARIABLE', displayName: 'Variable', plural: 'Variables', sentence: 'a variable {{ }}', iconClass: 'icon-variable' },
  variableAssignment: { id: 13, key: 'variableAssignment', name: 'VARIABLE_ASSIGNMENT', displayName: 'Variable Assignment', plural: 'Variable Assignments', sentence: 'a variable assignment', iconClass: 'icon-variable-assignment' },
}

export const ENTITY_TYPE_LIST: readonly EntityType[] = Object.values(ENTITY_TYPES)

export function entityTypeById(id: number): EntityType | undefined {
  return ENTITY_TYPE_LIST.find((type) => type.id === id)
}

/**
 * Searchable things outside the engine's vocabulary: the supplements of the media and visualization libraries
 * (SPEC §3 Supplement). They share ENTITY_TYPES' id space (search facets, result icons), after its last id.
 */
export const LIBRARY_TYPES = {
  supplement: { id: 14, name: 'SUPPLEMENT', displayName: 'Supplement', plural: 'Supplements', iconClass: 'icon-supplement' },
  visualization: { id: 15, name: 'VISUALIZATION', displayName: 'Visualization', plural: 'Visualizations', iconClass: 'icon-visualization' },
} as const
export type LibraryTypeKey = keyof typeof LIBRARY_TYPES

export function libraryTypeById(id: number): (typeof LIBRARY_TYPES)[LibraryTypeKey] | undefined {
  return Object.values(LIBRARY_TYPES).find((type) => type.id === id)
}

/** The entity types that can appear as nodes of a rule tree. */
export const NODE_TYPES = [
  'condition',
  'conditionAlways',
  'inputRequest',
  'variableAssignment',
  'formula',
  'advice',
  'ruleCall',
  'ruleExit',
  'apiCall',
] as const satisfies readonly EntityTypeKey[]
export type NodeType = (typeof NODE_TYPES)[number]

export const TAG_SLUGS = {
  assumption: 'assumption',
  collapse: 'collapse',
  example: 'example',
  followOn: 'follow-on',
} as const
export const TAG_LABEL_NEEDS_WORK = 'Needs Work'
export const TAG_TYPES = { adviceGroup: 'advice_group', adviceType: 'advice_type' } as const

export const RESERVED_VARIABLES = {
  context: 'Context',
  exampleNumber: 'Example_Number',
  headlineCustom: 'Headline_Custom',
  apiKeyOwnerId: 'ApiKey_Owner_Id',
  dataApiSources: 'Data_Api_Sources',
} as const
export type ReservedVariable = (typeof RESERVED_VARIABLES)[keyof typeof RESERVED_VARIABLES]
export const RESERVED_VARIABLE_NAMES: ReadonlySet<string> = new Set(Object.values(RESERVED_VARIABLES))

export const API_CONTEXTS = ['examples', 'genbranches', 'genbranchesTree', 'intro', 'run'] as const
export type ApiContext = (typeof API_CONTEXTS)[number]

/** Node id the engine uses for items it produces itself rather than from an author's node. */
export const ADVICE_SYSTEM_NODE_ID = -32768
