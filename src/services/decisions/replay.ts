// "Run again": a recorded answer run afresh, on the version it names (it must come out identical: the record is
// reproducible) or on the set's working draft (what a new version would change for this person). The run uses the
// record's inputs, the key owner it was asked with, and its moment as "now"; personal inputs are not kept, so a
// record that had any is run without them and says so.
import { compileAdviceSet, evaluate, type CompiledAdviceSet, type ContentType, type EngineResult } from '../../engine/index.ts'
import type { AdviceSetModel } from '../../engine/model.ts'
import type { DecisionRecordRow } from '../../db/queries/decisions.ts'
import { apiKeyOwnerOf } from '../../db/queries/decisions.ts'
import { findVersion } from '../../db/queries/versions.ts'
import type { RecordedOutcome } from '../../db/schema/index.ts'
import type { Actor, Deps } from '../context.ts'
import { buildAdviceSetModel } from '../authoring/advice-set-model.ts'
import { questionHref } from '../delivery/advice-api.ts'
import type { VersionSnapshot } from '../publishing/snapshot.ts'
import { recordedOutcome } from './build.ts'
import { canonicalJson } from './canonical.ts'

export type ReplayTarget = 'version' | 'draft'

export interface Replay extends Rerun {
  target: ReplayTarget
  identical: boolean
  /** One sentence per difference, for people ("Advice 12 is no longer given."). */
  differences: string[]
}

/** The inputs a record kept, without the personal placeholders. */
export function keptInputs(record: Pick<DecisionRecordRow, 'inputs'>): { inputs: Record<string, unknown>; withoutPersonal: string[] } {
  const inputs: Record<string, unknown> = {}
  const withoutPersonal: string[] = []
  for (const [name, value] of Object.entries(record.inputs)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && (value as { personal?: unknown }).personal === true) withoutPersonal.push(name)
    else inputs[name] = value
  }
  return { inputs, withoutPersonal }
}

export interface Rerun { status: string; outcome: RecordedOutcome; withoutPersonal: string[]; result: EngineResult }

/** Runs the record's inputs on a compiled set as the Advice API ran them (the result rendered in its content type). */
export function rerun(compiled: CompiledAdviceSet, record: DecisionRecordRow, keyOwnerId: string | undefined): Rerun {
  const { inputs, withoutPersonal } = keptInputs(record)
  const result = evaluate(compiled, inputs, {
    context: 'run', contentType: record.contentType as ContentType, questionHref, now: record.receivedAt, ...(keyOwnerId ? { apiKeyOwnerId: keyOwnerId } : {}),
  })
  const { outcome, status } = recordedOutcome(compiled, result)
  return { status, outcome, withoutPersonal, result }
}

/** The model of the version a record names (versions never change). */
export async function recordedVersionModel(deps: Deps, record: Pick<DecisionRecordRow, 'versionId'>): Promise<AdviceSetModel> {
  return ((await findVersion(deps.db, record.versionId))!.snapshot as VersionSnapshot).model
}

/** How two outcomes differ, item by item; [] when they are the same answer for the same reasons. */
export function outcomeDifferences(recorded: { status: string; outcome: RecordedOutcome }, fresh: { status: string; outcome: RecordedOutcome }): string[] {
  const differences: string[] = []
  if (recorded.status !== fresh.status) differences.push(`The status was ${recorded.status}; now it is ${fresh.status}.`)
  const key = (item: RecordedOutcome['items'][number]) => `${item.group}:${item.nodeId}`
  const before = new Map(recorded.outcome.items.map((item) => [key(item), item]))
  const after = new Map(fresh.outcome.items.map((item) => [key(item), item]))
  for (const [k, item] of before) if (!after.has(k)) differences.push(`Node ${item.nodeId} (${item.group}) is no longer given.`)
  for (const [k, item] of after) {
    const was = before.get(k)
    if (!was) differences.push(`Node ${item.nodeId} (${item.group}) is given now.`)
    else if (canonicalJson(was) !== canonicalJson(item)) differences.push(`Node ${item.nodeId} is given by another path or headline.`)
  }
  if (differences.length === 0 && canonicalJson(recorded.outcome.items.map(key)) !== canonicalJson(fresh.outcome.items.map(key))) differences.push('The same advice comes in another order.')
  if (canonicalJson(recorded.outcome.question ?? null) !== canonicalJson(fresh.outcome.question ?? null)) {
    differences.push(`The question asked next was ${recorded.outcome.question?.variable ?? 'none'}; now it is ${fresh.outcome.question?.variable ?? 'none'}.`)
  }
  const codes = (o: RecordedOutcome) => canonicalJson(o.errors.map((e) => [e.nodeId, e.code]))
  if (codes(recorded.outcome) !== codes(fresh.outcome)) differences.push('The errors differ.')
  return differences
}

/** Replays a record the actor may read (the caller checked that) on its version or on the working draft. */
export async function replayDecision(deps: Deps, actor: Actor, record: DecisionRecordRow, target: ReplayTarget): Promise<Replay> {
  const model = target === 'version' ? await recordedVersionModel(deps, record) : await buildAdviceSetModel(deps.db, record.adviceSetId, { reader: actor })
  const fresh = rerun(compileAdviceSet(model), record, await apiKeyOwnerOf(deps.db, record.apiKeyId))
  const differences = outcomeDifferences({ status: record.status, outcome: record.outcome }, fresh)
  return { target, identical: differences.length === 0, differences, ...fresh }
}
