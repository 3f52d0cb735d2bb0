// Replay at the review gate (issue 27 point 3): the recorded answers of the published version run again on another
// version (or the working draft), and what changes is counted by kind — advice added, advice removed, status or next
// question changed, a new error, an error gone — with a few example records of each. Records are read newest first
// in pages and forgotten once compared, so memory stays flat however many are replayed; a run yields to the event loop
// between slices and reports progress.
//
// Personal values are kept only as hashes. A record that had any is first run without them on its own version: when
// that reproduces its outcome, they did not matter and it is compared like any other; otherwise it is counted as not
// replayable, never guessed.
import type { AdviceSetRow } from '../../db/queries/advice-sets.ts'
import { apiKeyOwnerOf, countDecisionRecords, listRecordsToReplay, type ReplayRecordRow } from '../../db/queries/decisions.ts'
import { findVersionInState, type VersionRow } from '../../db/queries/versions.ts'
import { compileAdviceSet, evaluate, type CompiledAdviceSet, type EngineResult } from '../../engine/index.ts'
import type { RecordedOutcome } from '../../db/schema/index.ts'
import type { Deps } from '../context.ts'
import type { CompiledSource } from '../scenarios/runs.ts'
import type { VersionSnapshot } from '../publishing/snapshot.ts'
import { keptInputs } from './replay.ts'
import { statusOf } from './build.ts'
import { yieldToEventLoop } from '../operations/event-loop.ts'

export const REPLAY_KINDS = ['adviceAdded', 'adviceRemoved', 'statusChanged', 'newError', 'errorGone'] as const
export type ReplayKind = (typeof REPLAY_KINDS)[number]

export const REPLAY_KIND_LABELS: Record<ReplayKind, string> = {
  adviceAdded: 'Advice added', adviceRemoved: 'Advice removed', statusChanged: 'Status or next question changed', newError: 'New error', errorGone: 'Error gone',
}

/** The answers replayed by default (and at an approval); a job replays up to REPLAY_MAX. */
export const REPLAY_DEFAULT = 1000
export const REPLAY_MAX = 100_000
/** Example records kept per kind. */
const EXAMPLES = 5
/** Records read per query. */
const PAGE = 500
/** Runs between two yields to the event loop (a few milliseconds on the 500-node set). */
const SLICE = 100
const NOT_REPLAYABLE = 'notReplayable'

export interface ReplayGroup { kind: ReplayKind; label: string; count: number; examples: string[] }

export interface ReplaySummary {
  /** The published version whose recorded answers were replayed. */
  baseline: { versionId: number; number: number }
  /** What they were replayed on. */
  target: { versionId: number | null; label: string }
  asked: number
  /** Records read and run. */
  replayed: number
  /** Records whose outcome differs in any of the kinds. */
  changed: number
  /** Records with personal values their outcome depended on. */
  notReplayable: number
  groups: ReplayGroup[]
  finishedAt: string
  /** Stopped before all were replayed (a cancelled job). */
  cancelled: boolean
}

export interface ReplayOptions {
  limit?: number
  onProgress?: (done: number, total: number) => void | Promise<void>
  isCancelled?: () => boolean
}

/**
 * How a record's answer comes out on `compiled`: its inputs run as the Advice API ran them (its moment as "now", its
 * key's owner), in decision mode with text tags checked (the errors a render would add), compared with what it recorded.
 */
function rerunKinds(compiled: CompiledAdviceSet, record: ReplayRecordRow, inputs: Record<string, unknown>, keyOwnerId: string | undefined): ReplayKind[] {
  const result = evaluate(compiled, inputs, {
    context: 'run', render: false, checkTags: true, now: record.receivedAt, ...(keyOwnerId ? { apiKeyOwnerId: keyOwnerId } : {}),
  })
  return resultKinds(record, result)
}

/**
 * How a fresh run differs from what a record recorded: the kinds that apply (none: the same outcome). Read straight
 * from the run, without building its recorded form (a replay makes 100,000).
 */
function resultKinds(recorded: { status: string; outcome: RecordedOutcome }, result: EngineResult): ReplayKind[] {
  const before = recorded.outcome.items
  const fresh: Array<{ group: string; nodeId: string }> = []
  for (const item of result.advice) fresh.push({ group: 'advice', nodeId: item.nodeId })
  for (const item of result.assumptions) fresh.push({ group: 'assumptions', nodeId: item.nodeId })
  for (const item of result.examples) fresh.push({ group: 'examples', nodeId: item.nodeId })
  const kinds: ReplayKind[] = []
  const itemKey = (item: { group: string; nodeId: string }) => `${item.group}:${item.nodeId}`
  const items = setChanges(before, fresh, itemKey)
  if (items.added) kinds.push('adviceAdded')
  if (items.removed) kinds.push('adviceRemoved')
  const focus = result.currentFocus
  if (recorded.status !== statusOf(result) || (recorded.outcome.question?.variable ?? null) !== (focus?.variable ?? null)) kinds.push('statusChanged')
  const errors = setChanges(recorded.outcome.errors, result.errors, (e) => `${e.nodeId}:${e.code}`)
  if (errors.added) kinds.push('newError')
  if (errors.removed) kinds.push('errorGone')
  return kinds
}

/** Whether `after` holds keys `before` does not (added) and the other way round (removed); the same list in the same order is neither, at once. */
function setChanges<T>(before: readonly T[], after: readonly T[], key: (item: T) => string): { added: boolean; removed: boolean } {
  if (before.length === after.length && before.every((item, i) => key(item) === key(after[i]!))) return { added: false, removed: false }
  const was = new Set(before.map(key))
  const now = new Set(after.map(key))
  return { added: [...now].some((k) => !was.has(k)), removed: [...was].some((k) => !now.has(k)) }
}

/** The published version of the set, or null when none is. */
export async function publishedOf(deps: Deps, set: Pick<AdviceSetRow, 'id'>): Promise<VersionRow | null> {
  return (await findVersionInState(deps.db, set.id, 'published')) ?? null
}

/** Replays the latest recorded answers of the published version (`baseline`) on `target`. */
export async function replayRecorded(deps: Deps, set: Pick<AdviceSetRow, 'id'>, baseline: VersionRow, target: CompiledSource, options: ReplayOptions = {}): Promise<ReplaySummary> {
  const asked = Math.min(options.limit ?? REPLAY_DEFAULT, REPLAY_MAX)
  const filter = { adviceSetId: set.id, versionNumber: baseline.number }
  const total = await countDecisionRecords(deps.db, filter, asked)
  let baselineCompiled: CompiledAdviceSet | undefined
  const owners = new Map<number, string | undefined>()
  const groups = new Map<ReplayKind, ReplayGroup>(REPLAY_KINDS.map((kind) => [kind, { kind, label: REPLAY_KIND_LABELS[kind], count: 0, examples: [] }]))
  let replayed = 0
  let changed = 0
  let notReplayable = 0
  let cancelled = false
  let before: { receivedAt: Date; id: string } | undefined
  /** How a record's outcome changes on the target, or NOT_REPLAYABLE. */
  const replayOne = (record: ReplayRecordRow, keyOwner: string | undefined): ReplayKind[] | typeof NOT_REPLAYABLE => {
    const { inputs, withoutPersonal } = keptInputs(record)
    if (withoutPersonal.length > 0) {
      baselineCompiled ??= compileAdviceSet((baseline.snapshot as VersionSnapshot).model)
      if (rerunKinds(baselineCompiled, record, inputs, keyOwner).length > 0) return NOT_REPLAYABLE
    }
    return rerunKinds(target.compiled, record, inputs, keyOwner)
  }
  await options.onProgress?.(0, total)
  // The next page is asked for before this one is compared: the database reads it while the engine runs.
  const pageAfter = (after: typeof before, read: number) => read >= total ? Promise.resolve([])
    : listRecordsToReplay(deps.db, { ...filter, ...(after ? { before: after } : {}) }, Math.min(PAGE, total - read))
  let next = pageAfter(undefined, 0)
  while (replayed < total) {
    const page = await next
    if (page.length === 0) break
    if (options.isCancelled?.()) {
      cancelled = true
      break
    }
    const last = page[page.length - 1]!
    before = { receivedAt: last.receivedAt, id: last.id }
    next = pageAfter(before, replayed + page.length)
    for (let i = 0; i < page.length; i++) {
      const record = page[i]!
      if (!owners.has(record.apiKeyId)) owners.set(record.apiKeyId, await apiKeyOwnerOf(deps.db, record.apiKeyId))
      const kinds = replayOne(record, owners.get(record.apiKeyId))
      replayed++
      if (kinds === NOT_REPLAYABLE) notReplayable++
      else if (kinds.length > 0) {
        changed++
        for (const kind of kinds) {
          const group = groups.get(kind)!
          group.count++
          if (group.examples.length < EXAMPLES) group.examples.push(record.id)
        }
      }
      if ((i + 1) % SLICE === 0) {
        await yieldToEventLoop()
        await options.onProgress?.(replayed, total)
      }
    }
    await options.onProgress?.(replayed, total)
  }
  // A page read ahead and not needed (a cancel) is still awaited, so no query outlives the replay.
  await next.catch(() => [])
  return {
    baseline: { versionId: baseline.id, number: baseline.number },
    target: { versionId: target.versionId, label: target.label },
    asked, replayed, changed, notReplayable, groups: [...groups.values()], finishedAt: new Date().toISOString(), cancelled,
  }
}
