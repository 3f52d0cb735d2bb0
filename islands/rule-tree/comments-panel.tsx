// The comments of one node (GET/POST /api/comment/{nodeId}) in a small panel beside the tree; readers see them,
// writers can add one. Escape or Close returns to the node.
import { useEffect, useId, useRef, useState } from 'react'
import type { FormEvent } from 'react'
import { notify } from '../shared/notify.ts'
import { addComment, listComments, type NodeComment } from './api.ts'

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
  const panel = useRef<HTMLElement>(null)
  const textarea = useRef<HTMLTextAreaElement>(null)

  useEffect(() => {
    let current = true
    setComments(null)
    listComments(nodeId).then((list) => { if (current) setComments(list) }, (error: unknown) => {
      if (current) setComments([])
      notify({ type: 'error', text: `Could not load the comments: ${messageOf(error)}` })
    })
    panel.current?.focus()
    return () => { current = false }
  }, [nodeId])

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (body.trim() === '' || sending) return
    setSending(true)
    try {
      await addComment(nodeId, body.trim())
      const list = await listComments(nodeId)
      setComments(list)
      setBody('')
      onAdded(nodeId, list.length)
      // The disabled button would drop the focus out of the panel.
      textarea.current?.focus()
    } catch (error) {
      notify({ type: 'error', text: messageOf(error) })
    } finally {
      setSending(false)
    }
  }

  return (
    <aside
      ref={panel}
      className="rule-tree__comments"
      aria-labelledby={`${id}-heading`}
      data-comments-for={nodeId}
      tabIndex={-1}
      onKeyDown={(event) => { if (event.key === 'Escape') { event.stopPropagation(); onClose() } }}
    >
      <h2 className="rule-tree__comments-heading" id={`${id}-heading`}>Comments on {nodeLabel}</h2>
      {comments === null ? <p>Loading…</p> : comments.length === 0 ? <p>No comments yet.</p> : (
        <ol className="rule-tree__comment-list">
          {comments.map((comment) => (
            <li key={comment.id} className="rule-tree__comment">
              <p className="rule-tree__comment-meta">{comment.authorName}{comment.createdAt && <> · <time dateTime={comment.createdAt}>{new Date(comment.createdAt).toLocaleString()}</time></>}</p>
              <p className="rule-tree__comment-body">{comment.body}</p>
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
