// The active row's buttons, for pointer users; each names its key. Clicks are handled by the tree through
// data-action, so the buttons stay out of the tab order (the row itself has the focus).
import { fieldsOf } from './fields.ts'
import type { TreeNode } from './props.ts'

export function NodeActions({ node }: { node: TreeNode }) {
  return (
    <div className="rule-tree__actions" role="group" aria-label="Node actions">
      {fieldsOf(node.type).length > 0 && <button type="button" tabIndex={-1} data-action="edit" title="Enter or F2">Edit</button>}
      <button type="button" tabIndex={-1} data-action="add-child" title="A">Add child</button>
      <button type="button" tabIndex={-1} data-action="add-sibling" title="Shift+A">Add sibling</button>
      <button type="button" tabIndex={-1} data-action="copy" title="C">Copy</button>
      <button type="button" tabIndex={-1} data-action="delete" title="Delete">Delete</button>
      <button type="button" tabIndex={-1} data-action="comments" title="M">Comments</button>
      {node.type === 'advice' && <button type="button" tabIndex={-1} data-action="sources" title="S">Sources</button>}
    </div>
  )
}
