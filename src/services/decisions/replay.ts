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
import { NotFoundError } from '../errors.ts'
import { buildAdviceSetModel } from '../authoring/advice-set-model.ts'
import { questionHref } from '../delivery/advice-api.ts'
import type { VersionSnapshot } from '../publishing/snapshot.ts'
import { recordedOutcome } from './build.ts'
import { canonicalJson } from './canonical.ts'

/** The record's own version, the working draft, or another version of its set (by id: the review gate's replay). */
export type ReplayTarget = 'version' | 'draft' | number

/** One side of a replay's comparison: the answer's status and advice, named as that side's version names them. */
export interface ReplaySide {
  status: string
  question: string | null
  items: Array<{ nodeId: string; group: string; headline: string }>
}

export interface Replay extends Rerun {
  target: 'version' | 'draft' | 'other'
  /** What it ran on, for people: "version 3", "the working draft". */
  targetLabel: string
  identical: boolean
  /** One sentence per difference, for people ("Advice 12 is no longer given."). */
  differences: string[]
  /** The recorded answer and the new one, side by side. */
  before: ReplaySide
  after: ReplaySide
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

/** The model a replay runs on, and how it is named. */
async function targetModel(deps: Deps, actor: Actor, record: DecisionRecordRow, target: ReplayTarget): Promise<{ model: AdviceSetModel; label: string }> {
  if (target === 'version') return { model: await recordedVersionModel(deps, record), label: `version ${record.versionNumber}` }
  if (target === 'draft') return { model: await buildAdviceSetModel(deps.db, record.adviceSetId, { reader: actor }), label: 'the working draft' }
  const version = await findVersion(deps.db, target)
  if (!version || version.adviceSetId !== record.adviceSetId) throw new NotFoundError('No version with this id in this advice set')
  return { model: (version.snapshot as VersionSnapshot).model, label: `version ${version.number}` }
}

/** A side of the comparison, each advice named by its headline in `model` (a custom headline as given). */
function sideOf(model: AdviceSetModel, status: string, outcome: RecordedOutcome): ReplaySide {
  const headlines = new Map<string, string>()
  const visit = (nodes: AdviceSetModel['rules'][number]['nodes']) => nodes.forEach((node) => {
    if (node.type === 'advice') headlines.set(node.id, node.headline ?? '')
    else if (node.type === 'inputRequest') headlines.set(node.id, node.question ?? node.variable ?? '')
    visit(node.children)
  })
  for (const rule of [...model.rules, ...(model.externalRules ?? [])]) visit(rule.nodes)
  return {
    status,
    question: outcome.question ? (headlines.get(outcome.question.nodeId) || outcome.question.variable) : null,
    items: outcome.items.map((item) => ({ nodeId: item.nodeId, group: item.group, headline: item.customHeadline ?? (headlines.get(item.nodeId) || `(node ${item.nodeId})`) })),
  }
}

/** Replays a record the actor may read (the caller checked that) on its version, the working draft or another version. */
export async function replayDecision(deps: Deps, actor: Actor, record: DecisionRecordRow, target: ReplayTarget): Promise<Replay> {
  const { model, label } = await targetModel(deps, actor, record, target)
  const fresh = rerun(compileAdviceSet(model), record, await apiKeyOwnerOf(deps.db, record.apiKeyId))
  const differences = outcomeDifferences({ status: record.status, outcome: record.outcome }, fresh)
  const recordedModel = target === 'version' ? model : await recordedVersionModel(deps, record)
  return {
    target: typeof target === 'number' ? 'other' : target, targetLabel: label, identical: differences.length === 0, differences, ...fresh,
    before: sideOf(recordedModel, record.status, record.outcome), after: sideOf(model, fresh.status, fresh.outcome),
  }
}
