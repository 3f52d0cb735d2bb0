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
}

/** Returns the API's answer, or undefined when it is not known yet (the caller fetches it and runs again). */
export type ApiPort = (apiId: string, request: ApiRequest) => Value | undefined

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
