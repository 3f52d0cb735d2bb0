// The comments of one node (GET/POST /api/comment/{nodeId}) in a small panel beside the tree; readers see them,
// writers can add one, and a comment's author (or an admin of the team) can edit or delete it; a deleted comment
// can be brought back at once (Undo) or later from Activity. Escape or Close returns to the node.
import { useEffect, useId, useRef, useState } from 'react'
import type { FormEvent } from 'react'
import { formatDateTime } from '../../src/engine/format/date-time.ts'
import { currentPreferences } from '../shared/context.ts'
import { notify } from '../shared/notify.ts'
import { addComment, deleteComment, editComment, listComments, restoreComment, type NodeComment } from './api.ts'

interface CommentsPanelProps {
  nodeId: number
  nodeLabel: string
  readOnly: boolean
  onAdded(nodeId: number, count: number): void
  onClose(): void
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

export function CommentsPanel({ nodeId, nodeLabel, readOnly, onAdded, onClose }: CommentsPanelProps) {
  const id = useId()
  const [comments, setComments] = useState<NodeComment[] | null>(null)
  const [body, setBody] = useState('')
  const [sending, setSending] = useState(false)
  const [editing, setEditing] = useState<{ id: number; body: string } | null>(null)
  const [deleted, setDeleted] = useState<NodeComment | null>(null)
  const panel = useRef<HTMLElement>(null)
  const textarea = useRef<HTMLTextAreaElement>(null)

  useEffect(() => {
    let current = true
    setComments(null)
    setEditing(null)
    setDeleted(null)
    listComments(nodeId).then((list) => { if (current) setComments(list) }, (error: unknown) => {
      if (current) setComments([])
      notify({ type: 'error', text: `Could not load the comments: ${messageOf(error)}` })
    })
    // M opens the panel to write: the textarea takes the focus (readers, who cannot write, get the panel).
    ;(textarea.current ?? panel.current)?.focus()
    return () => { current = false }
  }, [nodeId])

  /** Runs one change, then shows the list as the server now has it and tells the tree the new count. */
  const change = async (write: () => Promise<void>): Promise<boolean> => {
    setSending(true)
    try {
      await write()
      const list = await listComments(nodeId)
      setComments(list)
      onAdded(nodeId, list.length)
      return true
    } catch (error) {
      notify({ type: 'error', text: messageOf(error) })
      return false
    } finally {
      setSending(false)
    }
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (body.trim() === '' || sending) return
    if (await change(() => addComment(nodeId, body.trim()))) setBody('')
    // The disabled button would drop the focus out of the panel.
    textarea.current?.focus()
  }

  const saveEdit = async (event: FormEvent) => {
    event.preventDefault()
    if (!editing || editing.body.trim() === '' || sending) return
    if (await change(() => editComment(nodeId, editing.id, editing.body.trim()))) setEditing(null)
  }

  const remove = async (comment: NodeComment) => {
    if (await change(() => deleteComment(nodeId, comment.id))) setDeleted(comment)
    panel.current?.focus()
  }

  const undo = async () => {
    if (!deleted) return
    if (await change(() => restoreComment(nodeId, deleted.id))) setDeleted(null)
    panel.current?.focus()
  }

  const tz = currentPreferences().tz

  return (
    <aside
      ref={panel}
      className="rule-tree__comments"
      aria-labelledby={`${id}-heading`}
      data-comments-for={nodeId}
      tabIndex={-1}
      onKeyDown={(event) => { if (event.key === 'Escape') { event.stopPropagation(); if (editing) setEditing(null); else onClose() } }}
    >
      <h2 className="rule-tree__comments-heading" id={`${id}-heading`}>Comments on {nodeLabel}</h2>
      {deleted && (
        <p className="rule-tree__comment-deleted" role="status">
          Comment deleted. <button type="button" onClick={() => { void undo() }} disabled={sending}>Undo</button>
        </p>
      )}
      {comments === null ? <p>Loading…</p> : comments.length === 0 ? <p>No comments yet.</p> : (
        <ol className="rule-tree__comment-list">
          {comments.map((comment) => (
            <li key={comment.id} className="rule-tree__comment" data-comment-id={comment.id}>
              <p className="rule-tree__comment-meta">{comment.authorName}{comment.createdAt && <> · <time dateTime={comment.createdAt}>{formatDateTime(comment.createdAt, tz)}</time></>}</p>
              {editing?.id === comment.id ? (
                <form className="rule-tree__comment-form" onSubmit={saveEdit}>
                  <label htmlFor={`${id}-edit-${comment.id}`}>Edit your comment</label>
                  <textarea
                    id={`${id}-edit-${comment.id}`} rows={3} maxLength={5000} value={editing.body} autoFocus
                    onChange={(event) => setEditing({ id: comment.id, body: event.target.value })}
                  />
                  <div className="rule-tree__comment-actions">
                    <button type="submit" disabled={sending || editing.body.trim() === ''}>Save</button>
                    <button type="button" onClick={() => setEditing(null)}>Cancel</button>
                  </div>
                </form>
              ) : (
                <>
                  <p className="rule-tree__comment-body">{comment.body}</p>
                  {!readOnly && comment.canEdit && (
                    <div className="rule-tree__comment-actions">
                      <button type="button" onClick={() => setEditing({ id: comment.id, body: comment.body })} aria-label={`Edit the comment of ${comment.authorName}`}>Edit</button>
                      <button type="button" onClick={() => { void remove(comment) }} disabled={sending} aria-label={`Delete the comment of ${comment.authorName}`}>Delete</button>
                    </div>
                  )}
                </>
              )}
            </li>
          ))}
        </ol>
      )}
      {!readOnly && (
        <form className="rule-tree__comment-form" onSubmit={submit}>
          <label htmlFor={`${id}-body`}>Add a comment</label>
          <textarea ref={textarea} id={`${id}-body`} rows={3} maxLength={5000} value={body} onChange={(event) => setBody(event.target.value)} />
          <button type="submit" disabled={sending || body.trim() === ''}>Add comment</button>
        </form>
      )}
      <button type="button" className="rule-tree__comments-close" onClick={onClose}>Close</button>
    </aside>
  )
}
