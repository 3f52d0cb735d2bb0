import type { ApiContext } from '../entity-types.ts'
import type { ContentType } from '../content/index.ts'
import type { Value } from '../value.ts'

export interface ApiRequest {
  nodeId: string
  apiId: string
  /** The variable that will receive the answer. */
  variable: string
  /** Current value of any variable (undefined when it has none), for building the outgoing request. */
  valueOf(name: string): Value | undefined
  /** Adds an entry (once) to the reserved variable Data_Api_Sources: the external data this run used. */
  useSource(entry: string): void
}

/** A port's answer that the call failed (the service did not answer, or not usably): the call's rule stops. */
export interface ApiFailure {
  failure: { code: string; message: string }
}

export function apiFailure(code: string, message: string): ApiFailure {
  return { failure: { code, message } }
}

/** Values are primitives, dates and lists, never plain objects: a plain object from a port is its failure. */
export function isApiFailure(answer: Value | ApiFailure): answer is ApiFailure {
  return typeof answer === 'object' && answer !== null && !Array.isArray(answer) && !(answer instanceof Date)
}

/**
 * Returns the API's answer; a failure (apiFailure()), which makes the call's rule incomplete advice with the failure
 * as its cause while the other rules run; or undefined when it is not known yet: the call is added to
 * `pendingApiCalls`, the rest of its rule is skipped and the run goes on with the next rule, so one run collects the
 * calls of every rule it can reach. The caller fetches them (in parallel) and runs again with the answers.
 */
export type ApiPort = (apiId: string, request: ApiRequest) => Value | ApiFailure | undefined

export interface EvaluateOptions {
  /** The API context of the run; the reserved variable Context holds it. Default 'run'. */
  context?: ApiContext
  /** Example_Number in the 'examples' context (default 1); unset in other contexts. */
  exampleNumber?: number
  /**
   * Record every node visited with its value and time; 'visits' records the nodes and values only (durationNs 0),
   * which is all branch generation needs and costs far less than timing every node.
   */
  trace?: boolean | 'visits'
  /**
   * Explain the outcome: each advice item's reasons and the focus's (EngineResult.explanation), with the values every
   * condition read. Decides every condition in full, as a trace does, so it costs about what a trace costs.
   */
  explain?: boolean
  /** With `trace`: record only these nodes (the rest of the run is unchanged), e.g. the nodes of one path. */
  traceOnly?: ReadonlySet<string>
  /** The moment of the run (today() and date maths); default the current time. */
  now?: Date
  apiPort?: ApiPort
  /** Value of the reserved variable ApiKey_Owner_Id. */
  apiKeyOwnerId?: string
  /** Value of the reserved variable Data_Api_Sources (default an empty list). */
  dataApiSources?: string[]
  /**
   * Full-response mode (default): headlines, texts and questions are rendered in `contentType`.
   * Decision mode (`false`): items carry ids, tags and sources only, which is what a decision needs.
   */
  render?: boolean
  /**
   * Decision mode only: report each text tag that has no value (UNDEFINED_IN_OUTPUT) as rendering would, without
   * rendering: what a replay of recorded answers needs to find new errors, at a fraction of a render's cost.
   */
  checkTags?: boolean
  /** Default 'text'. */
  contentType?: ContentType
  /** Link target of a variable chip's backlink in html. */
  questionHref?: (questionNodeId: string) => string
  /**
   * Nodes other than conditions one run may visit before it stops with STEP_LIMIT (rule calls can multiply
   * work; conditions only choose among the other nodes, so they are not counted). Default 100,000.
   */
  maxSteps?: number
  /** Nested rule calls allowed. Default 32. */
  maxCallDepth?: number
}
