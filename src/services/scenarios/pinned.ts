// "Record from a live call" on the scenario form (issue 17's pinned responses): the form's answers run on the working
// draft with every other pinned answer, and the one API asked for is called live, bypassing its cache, so the answer
// pinned is what the API says now. What came back (status and JSON body) fills the form; nothing is stored until the
// scenario is saved. Decision: runs of a scenario call the APIs it does not pin live (as the debugger does), so a
// scenario stays runnable as it is written; pinning makes it repeatable.
import type { PinnedApiResponse } from '../../db/schema/index.ts'
import type { Actor, Deps } from '../context.ts'
import { ValidationError } from '../errors.ts'
import { externalApiRuntime, runSetWithApis } from '../integrations/api-runtime.ts'
import { writableSetOf } from './access.ts'
import { calledApiIds, parseInputs, parsePinnedResponses, parseRunAsOf } from './fields.ts'
import { compileSource, pinnedMap, scenarioMoment } from './runs.ts'

export interface RecordRequest {
  adviceSetId: number
  apiId: string
  inputs?: unknown
  runAsOf?: unknown
  /** The other APIs' pinned answers, used as the scenario's runs would. */
  pinnedResponses?: unknown
}

export interface RecordedResponse extends PinnedApiResponse {
  timeMs: number | null
}

export async function recordLiveResponse(deps: Deps, actor: Actor, request: RecordRequest): Promise<RecordedResponse> {
  const set = await writableSetOf(deps.db, actor, request.adviceSetId)
  const source = await compileSource(deps.db, set, 'draft')
  const field = `pinnedResponses.${request.apiId}`
  if (!calledApiIds(source.compiled).has(request.apiId)) throw new ValidationError(field, `${field}: no API Call node of this advice set calls external API ${request.apiId}.`)
  const inputs = parseInputs(request.inputs, source.compiled)
  const runAsOf = parseRunAsOf(request.runAsOf)
  const others = parsePinnedResponses(request.pinnedResponses, source.compiled)
  delete others[request.apiId]
  externalApiRuntime(deps).responses.forget(request.apiId)
  const pinned = pinnedMap(others)
  const { exchanges } = await runSetWithApis(deps, {
    ownerId: set.ownerId, compiled: source.compiled, inputs,
    options: { render: false, now: scenarioMoment({ runAsOf }, new Date()) }, ...(pinned ? { pinned } : {}),
  })
  const answer = exchanges.map((e) => e.answer).find((a) => a.apiId === request.apiId && !a.pinned)
  if (!answer) {
    throw new ValidationError(field, `${field}: with these answers the run reaches no call of this API. Answer the questions asked before its API Call node, then record.`)
  }
  if (answer.status === null || answer.document === undefined) {
    throw new ValidationError(field, `${field}: ${answer.error?.message ?? `The external API "${answer.name}" sent no JSON answer`}.`)
  }
  return { status: answer.status, body: answer.document, timeMs: answer.timeMs }
}
