// The authoring model the engine compiles: what storage loads and what the editor edits. Ids are strings
// (database ids are serialised), names of variables and formulas follow SPEC §5.
import type { NodeType } from './entity-types.ts'
import type { DataType } from './types/index.ts'

export interface AdviceSetModel {
  id: string
  name: string
  /** In run order. */
  rules: RuleModel[]
  /** The dictionary: variables and formulas this advice set uses. */
  entities: EntityModel[]
  /** Rules of other advice sets that Rule Call nodes here call. */
  externalRules?: RuleModel[]
}

export interface RuleModel {
  id: string
  /** The rule's identity across versions of its set and in exported files; absent in versions whose rule row was gone when keys came. */
  key?: string
  name: string
  adviceSetId: string
  /**
   * The set's run skips this rule: it runs only where a Rule Call calls it. Absent (as in versions published before
   * the flag existed) means it runs on its own too.
   */
  onlyWhenCalled?: boolean
  /** Root nodes in sibling order. */
  nodes: NodeModel[]
}

export interface SourceRef {
  id: string
  name: string
  uri?: string
}

/**
 * One rule-tree node. Which fields matter depends on `type`:
 * - condition: `expression` (a condition);
 * - conditionAlways: nothing;
 * - inputRequest: `variable` (asked for) and `question` (a template);
 * - variableAssignment: `expression`, an assignment statement such as `{{Total}} += {{Fee}}`;
 * - formula: `variable`, the name of a dictionary formula, which defines it: the node is where its value is worked
 *   out (and shown in a trace). An `expression` (nodes saved before formulas lived only in the dictionary, and the
 *   versions holding them) redefines the formula from here on, for the rest of the run;
 * - advice: `headline` and `text` (templates), `tags` (slugs: assumption, example, collapse, follow-on), `sources`;
 * - ruleCall: `calledRuleId`; ruleExit: nothing;
 * - apiCall: `apiId` and `variable` (receives the value the caller's port returns).
 * Children of a condition run when it is true; children of every other node run after it.
 */
export interface NodeModel {
  id: string
  /**
   * The node's identity across versions of its set (kept through edits, moves and restores; new for a copy). Absent
   * in versions published before keys existed whose node rows were not found.
   */
  key?: string
  type: NodeType
  children: NodeModel[]
  expression?: string
  variable?: string
  headline?: string
  text?: string
  question?: string
  calledRuleId?: string
  apiId?: string
  tags?: string[]
  sources?: SourceRef[]
}

export interface EntityModel {
  id: string
  name: string
  kind: 'variable' | 'formula'
  /** Variables: how answers are coerced and formatted. Formulas: how results are formatted. */
  dataType?: DataType
  options?: string[]
  isClosedSet?: boolean
  displayFormat?: string
  /** Raw like an input (coerced with the data type); used when nobody set the variable. */
  defaultValue?: unknown
  /** Formulas: the expression that computes them. */
  expression?: string
  isSystem?: boolean
  /** Constants always hold their default value; inputs and assignments cannot change them. */
  isConstant?: boolean
  description?: string
}
