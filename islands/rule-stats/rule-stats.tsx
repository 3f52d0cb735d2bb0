// The rule header's figures (nodes, depth, errors, warnings, unreachable), read again from the server each time the
// rule tree reports a settled change, so they follow every edit rather than only a reload.
import { useEffect, useState } from 'react'
import { callApi } from '../shared/api.ts'
import { isRecord } from '../shared/guards.ts'
import { RULE_TREE_CHANGED_EVENT, ruleTreeChangeOf } from '../rule-tree/changed-event.ts'
import { figuresOf, type RuleStatsProps } from './props.ts'

export function RuleStats({ ruleId, stats: initial }: RuleStatsProps) {
  const [stats, setStats] = useState(initial)

  useEffect(() => {
    let asking: AbortController | null = null
    const onChanged = (event: Event) => {
      if (ruleTreeChangeOf(event)?.ruleId !== ruleId) return
      asking?.abort()
      const current = asking = new AbortController()
      callApi(`/api/rule/stats?id=${ruleId}`, { signal: current.signal }).then((answer) => {
        const figures = isRecord(answer) ? figuresOf(answer.data) : null
        if (figures && !current.signal.aborted) setStats(figures)
      }, (error: unknown) => {
        if (!current.signal.aborted) console.warn('Rule stats: the figures could not be read', error)
      })
    }
    document.addEventListener(RULE_TREE_CHANGED_EVENT, onChanged)
    return () => {
      document.removeEventListener(RULE_TREE_CHANGED_EVENT, onChanged)
      asking?.abort()
    }
  }, [ruleId])

  return (
    <dl className="rule-stats" aria-live="polite">
      <div><dt>Nodes</dt><dd>{stats.nodes}</dd></div>
      <div><dt>Depth</dt><dd>{stats.depth}</dd></div>
      <div><dt>Errors</dt><dd className={stats.errors ? 'rule-stats__bad' : ''}>{stats.errors}</dd></div>
      <div><dt>Warnings</dt><dd className={stats.warnings ? 'rule-stats__warn' : ''}>{stats.warnings}</dd></div>
      <div><dt>Unreachable</dt><dd className={stats.unreachable ? 'rule-stats__warn' : ''}>{stats.unreachable}</dd></div>
    </dl>
  )
}
