// One treeitem. Rows are memoised on plain values, so a change to one node re-renders that row alone; the editing
// and adding parts mount only on the active row.
import { memo } from 'react'
import type { CSSProperties, ReactNode } from 'react'
import type { CheckIssue } from '../../src/engine/checks/index.ts'
import { nodeSummary, typeIcon, typeLabel } from './fields.ts'
import type { DropZone } from './moves.ts'
import type { TreeNode } from './props.ts'

export interface NodeRowProps {
  node: TreeNode
  level: number
  posInSet: number
  setSize: number
  hasChildren: boolean
  expanded: boolean
  active: boolean
  /** The one row in the tab order: the active one, or the first row while the active one is hidden. */
  tabbable: boolean
  readOnly: boolean
  issues: readonly CheckIssue[] | undefined
  dropZone: DropZone | null
  /** Supplements linked to the node (its sources). */
  sourceCount: number
  ruleName(id: number): string | undefined
  apiName?(id: string): string | undefined
  /** A Formula node without an expression of its own: its dictionary formula's, to show. */
  formulaExpression?: string | null
  /** The editor, type picker or toolbar, only on the active row. */
  children?: ReactNode
}

export const NodeRow = memo(function NodeRow(props: NodeRowProps) {
  const { node, level, posInSet, setSize, hasChildren, expanded, active, tabbable, readOnly, issues, dropZone, sourceCount, ruleName, apiName, formulaExpression, children } = props
  const summary = nodeSummary(node, ruleName, apiName, formulaExpression)
  const errors = issues?.filter((issue) => issue.severity === 'error').length ?? 0
  const classes = [
    'rule-tree__node',
    active ? 'rule-tree__node--active' : '',
    node.id < 0 ? 'rule-tree__node--new' : '',
    issues && issues.length > 0 ? (errors > 0 ? 'rule-tree__node--error' : 'rule-tree__node--warning') : '',
    dropZone ? `rule-tree__node--drop-${dropZone}` : '',
  ].filter(Boolean).join(' ')
  return (
    <div
      role="treeitem"
      id={`rule-node-${node.id}`}
      data-node-id={node.id}
      data-node-type={node.type}
      aria-level={level}
      aria-setsize={setSize}
      aria-posinset={posInSet}
      aria-expanded={hasChildren ? expanded : undefined}
      aria-selected={active}
      aria-current={active ? 'true' : undefined}
      tabIndex={tabbable ? 0 : -1}
      draggable={!readOnly && node.id > 0}
      className={classes}
      style={{ '--level': level - 1 } as CSSProperties}
    >
      <div className="rule-tree__line">
        {hasChildren && <span className="rule-tree__toggle" data-action="toggle" aria-hidden="true">{expanded ? '▾' : '▸'}</span>}
        <span className={`rule-tree__type-icon ${typeIcon(node.type)}`} aria-hidden="true" />
        <span className="rule-tree__type">{typeLabel(node.type)}</span>
        <span className="rule-tree__summary">{summary || (node.id < 0 ? 'New node' : '')}</span>
        {node.tags.map((tag) => <span key={tag} className="rule-tree__tag">{tag}</span>)}
        {node.commentCount > 0 && (
          <button type="button" tabIndex={-1} className="rule-tree__comment-count" data-action="comments"
            aria-label={`${node.commentCount} comment${node.commentCount === 1 ? '' : 's'}`}>
            {node.commentCount}
          </button>
        )}
        {sourceCount > 0 && (
          <button type="button" tabIndex={-1} className="rule-tree__source-count" data-action="sources"
            aria-label={`${sourceCount} source${sourceCount === 1 ? '' : 's'}`}>
            {sourceCount}
          </button>
        )}
      </div>
      {issues && issues.length > 0 && (
        <ul className="rule-tree__node-issues">
          {issues.map((issue, index) => (
            <li key={`${issue.code}-${index}`} className={`rule-tree__issue rule-tree__issue--${issue.severity}`} data-code={issue.code}>{issue.message}</li>
          ))}
        </ul>
      )}
      {children}
    </div>
  )
})
