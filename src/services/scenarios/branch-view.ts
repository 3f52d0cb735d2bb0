// Generated branches as pages and /api show them: each path's conditions in words, where it ends, the answers that
// reach it (raw, and as a person reads them), the outcome of a run with them (advice headlines, final focus), and a
// "Save as scenario" link that fills the new-scenario page (issue 14 part 1) from the branch.
import {
  pathInWords, type Branch, type CompiledAdviceSet, type RunOutcome, type UnreachablePath, type WordsCache,
} from '../../engine/index.ts'
import { nodeLabel } from '../publishing/diff.ts'

export interface OutcomeView {
  advice: Array<{ nodeId: string; headline: string }>
  /** The question the run stopped at, or null: complete. */
  focus: { nodeId: string; variable: string; question: string } | null
  /** The run's errors, as the debugger words them. */
  errors: string[]
}

/**
 * What a branch is: an outcome; an error branch (no answers tried reach it without an error in its rules); or a prefix
 * (it ends at a question or another step that decides nothing, and the run goes on: not an outcome of its own).
 */
export type BranchKind = 'outcome' | 'error' | 'prefix'


export interface AnswerView { name: string; value: string }

export interface PathView {
  /** Position in the generation, from 1 (branches and unreachable paths share the numbering). */
  number: number
  ruleId: string
  /** The rule the path starts in, then each rule it enters through a Rule Call. */
  rules: string[]
  path: string[]
  conditions: string[]
  /** The conditions joined in words ("Always" without any). */
  when: string
  /** The node the path ends at, named as the publisher pages name nodes. */
  ends: string
}

export interface BranchRow extends PathView {
  kind: BranchKind
  inputs: Record<string, unknown>
  answers: AnswerView[]
  outcome: OutcomeView | null
  saveHref: string
}

export interface UnreachableRow extends PathView {
  reason: string
}

/** Everything a page needs to describe paths of one compiled source; words of each node are worked out once. */
export class PathPresenter {
  private readonly words: WordsCache = new Map()

  constructor(
    readonly compiled: CompiledAdviceSet,
    private readonly adviceSetId: number,
    private readonly runAsOf: string | null,
  ) {}

  path(number: number, side: { ruleId: string; path: string[] }): PathView {
    const words = pathInWords(this.compiled, side.path, this.words)
    const leaf = this.compiled.nodeById.get(side.path[side.path.length - 1] ?? '')
    return {
      number, ruleId: side.ruleId, rules: words.rules, path: side.path, conditions: words.conditions, when: words.text,
      ends: leaf ? nodeLabel(leaf.model, (id) => this.compiled.ruleById.get(id)?.name) : 'Unknown node',
    }
  }

  branch(number: number, branch: Branch): BranchRow {
    const view = this.path(number, branch)
    const outcome = branch.outcome ? this.outcome(branch.outcome) : null
    const saveHref = this.saveHref(this.scenarioName(`Branch ${number}`, view, outcome), branch.inputs)
    const kind: BranchKind = branch.prefix ? 'prefix' : branch.endsInError ? 'error' : 'outcome'
    return { ...view, kind, inputs: branch.inputs, answers: answersOf(branch.inputs), outcome, saveHref }
  }

  unreachable(number: number, path: UnreachablePath): UnreachableRow {
    return { ...this.path(number, path), reason: path.reason }
  }

  outcome(outcome: RunOutcome): OutcomeView {
    const advice = outcome.advice.map((nodeId) => {
      const model = this.compiled.nodeById.get(nodeId)?.model
      return { nodeId, headline: (model?.headline || model?.text || '').trim() || 'Untitled advice' }
    })
    const focusNode = outcome.focus === null ? undefined : this.compiled.nodeById.get(outcome.focus)
    const focus = outcome.focus === null ? null : {
      nodeId: outcome.focus, variable: focusNode?.model.variable ?? '', question: (focusNode?.model.question ?? '').trim() || focusNode?.model.variable || '',
    }
    return { advice, focus, errors: outcome.errors.map((error) => error.message) }
  }

  /** A scenario name saying where the path leads: its conditions, or (without any) the advice it ends with. */
  scenarioName(prefix: string, view: PathView, outcome: OutcomeView | null): string {
    const name = `${prefix}: ${view.when === 'Always' ? (outcome?.advice.at(-1)?.headline ?? view.ends) : view.when}`
    return name.length > 120 ? `${name.slice(0, 119)}…` : name
  }

  /** The new-scenario page filled with these answers, the name, and the date the runs are as of. */
  saveHref(name: string, inputs: Record<string, unknown>): string {
    const query = new URLSearchParams({ inputs: JSON.stringify(inputs), name })
    if (this.runAsOf) query.set('runAsOf', this.runAsOf)
    return `/adviceset/${this.adviceSetId}/advicescenario/new?${query.toString()}`
  }
}

/** Raw answers as a person reads them: Yes/No, lists with commas, text as typed. */
export function answersOf(inputs: Record<string, unknown>): AnswerView[] {
  return Object.entries(inputs).map(([name, raw]) => ({ name, value: answerText(raw) }))
}

function answerText(raw: unknown): string {
  if (typeof raw === 'boolean') return raw ? 'Yes' : 'No'
  if (Array.isArray(raw)) return raw.map(answerText).join(', ')
  if (raw === null || raw === undefined) return '—'
  if (typeof raw === 'object') return JSON.stringify(raw)
  return String(raw)
}
