// The rule-tree island's props (the rule pages render them; see the rules contract): the rule's nodes flat (fields
// without a value left out), the rules a Rule Call may name and the dictionary. The whole set's static checks come
// from the server (api.ts checks()), so the page never carries the set's model.
import { NODE_TYPES, type NodeType } from '../../src/engine/entity-types.ts'
import { InvalidPropsError } from '../shared/invalid-props.ts'
import { isRecord } from '../shared/guards.ts'

export interface TreeNode {
  /** Negative for a node the author is adding and has not saved yet. */
  id: number
  parentId: number | null
  position: number
  type: NodeType
  expression: string | null
  variable: string | null
  headline: string | null
  text: string | null
  question: string | null
  calledRuleId: number | null
  apiId: string | null
  tags: string[]
  commentCount: number
}

export interface RuleRef { id: number; name: string; adviceSetId: number; adviceSetName: string }

/** An external API an API Call node may name (the rule pages' apiselector fragment), with the variables it maps and their types. */
export interface ApiRef { id: string; name: string; variables: string[]; dataTypes: Record<string, string> }

/** A dictionary entry the set may use; formulas carry their expression (a Formula node shows and edits it). */
export interface DictionaryEntry { id: number; name: string; kind: 'variable' | 'formula'; dataType: string | null; expression: string | null }

export interface RuleTreeProps {
  mode: 'edit' | 'read'
  /** Whether the reader may open the nodes' comments: the set's own team only (a public or starter set's other readers may not). */
  comments: boolean
  rule: { id: number; name: string; adviceSetId: number }
  /** `ownerId`: whose dictionary the set reads (entries made in other tabs join the suggestions when they are its). */
  adviceSet: { id: number; name: string; ownerId: string }
  nodes: TreeNode[]
  rules: RuleRef[]
  entities: DictionaryEntry[]
  activeNodeId: number | null
  /** The set owner's external APIs (for API Call nodes' names and picker). */
  apis: ApiRef[]
  /** Supplements linked to each advice node that has any (its sources), by node id. */
  sourceCounts: Record<number, number>
  maxSourcesPerNode: number
  maxUploadBytes: number
}

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0
const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null)

export function isNodeType(value: unknown): value is NodeType {
  return (NODE_TYPES as readonly unknown[]).includes(value)
}

export function parseTreeNode(raw: unknown): TreeNode {
  if (!isRecord(raw) || !isId(raw.id) || !isNodeType(raw.type)) throw new InvalidPropsError('every node needs an id and a node type')
  return {
    id: raw.id,
    parentId: isId(raw.parentId) ? raw.parentId : null,
    position: typeof raw.position === 'number' ? raw.position : 0,
    type: raw.type,
    expression: textOrNull(raw.expression),
    variable: textOrNull(raw.variable),
    headline: textOrNull(raw.headline),
    text: textOrNull(raw.text),
    question: textOrNull(raw.question),
    calledRuleId: isId(raw.calledRuleId) ? raw.calledRuleId : null,
    apiId: textOrNull(raw.apiId),
    tags: Array.isArray(raw.tags) ? raw.tags.filter((tag): tag is string => typeof tag === 'string') : [],
    commentCount: typeof raw.commentCount === 'number' ? raw.commentCount : 0,
  }
}

function parseRuleRef(raw: unknown): RuleRef {
  if (!isRecord(raw) || !isId(raw.id) || typeof raw.name !== 'string') throw new InvalidPropsError('every rule needs an id and a name')
  return {
    id: raw.id,
    name: raw.name,
    adviceSetId: isId(raw.adviceSetId) ? raw.adviceSetId : 0,
    adviceSetName: typeof raw.adviceSetName === 'string' ? raw.adviceSetName : '',
  }
}

function parseEntry(raw: unknown): DictionaryEntry {
  if (!isRecord(raw) || !isId(raw.id) || typeof raw.name !== 'string' || (raw.kind !== 'variable' && raw.kind !== 'formula')) {
    throw new InvalidPropsError('every dictionary entry needs an id, a name and a kind')
  }
  return { id: raw.id, name: raw.name, kind: raw.kind, dataType: textOrNull(raw.dataType), expression: textOrNull(raw.expression) }
}

function parseApiRef(raw: unknown): ApiRef | null {
  if (!isRecord(raw) || (typeof raw.id !== 'string' && typeof raw.id !== 'number') || typeof raw.name !== 'string') return null
  const dataTypes = isRecord(raw.dataTypes) ? Object.entries(raw.dataTypes).filter((entry): entry is [string, string] => typeof entry[1] === 'string') : []
  return {
    id: String(raw.id), name: raw.name, variables: Array.isArray(raw.variables) ? raw.variables.filter((v): v is string => typeof v === 'string') : [],
    dataTypes: Object.fromEntries(dataTypes),
  }
}

export function parseRuleTreeProps(raw: unknown): RuleTreeProps {
  if (!isRecord(raw) || !isRecord(raw.rule) || !isId(raw.rule.id) || !Array.isArray(raw.nodes)) {
    throw new InvalidPropsError('rule-tree needs the rule and its nodes')
  }
  const adviceSet = isRecord(raw.adviceSet) && isId(raw.adviceSet.id)
    ? { id: raw.adviceSet.id, name: typeof raw.adviceSet.name === 'string' ? raw.adviceSet.name : '', ownerId: typeof raw.adviceSet.ownerId === 'string' ? raw.adviceSet.ownerId : '' }
    : { id: isId(raw.rule.adviceSetId) ? raw.rule.adviceSetId : 0, name: '', ownerId: '' }
  return {
    mode: raw.mode === 'edit' ? 'edit' : 'read',
    comments: raw.comments === true,
    rule: { id: raw.rule.id, name: typeof raw.rule.name === 'string' ? raw.rule.name : '', adviceSetId: adviceSet.id },
    adviceSet,
    nodes: raw.nodes.map(parseTreeNode),
    rules: Array.isArray(raw.rules) ? raw.rules.map(parseRuleRef) : [],
    entities: Array.isArray(raw.entities) ? raw.entities.map(parseEntry) : [],
    activeNodeId: isId(raw.activeNodeId) ? raw.activeNodeId : null,
    apis: Array.isArray(raw.apis) ? raw.apis.map(parseApiRef).filter((api) => api !== null) : [],
    sourceCounts: parseCounts(raw.sourceCounts),
    maxSourcesPerNode: isId(raw.maxSourcesPerNode) ? raw.maxSourcesPerNode : 10,
    maxUploadBytes: isId(raw.maxUploadBytes) ? raw.maxUploadBytes : 10 * 1024 * 1024,
  }
}

function parseCounts(raw: unknown): Record<number, number> {
  if (!isRecord(raw)) return {}
  return Object.fromEntries(Object.entries(raw).filter(([key, value]) => /^\d+$/.test(key) && typeof value === 'number').map(([key, value]) => [Number(key), value as number]))
}
