// The sources of one advice node (SPEC §3 Supplement, §4 Upload) in a panel beside the tree, like its comments: the
// supplements linked to it, the uploader (uploads are linked to the node), a link form prefilled from the page's
// OpenGraph data when the server can fetch it, and a search of the library to attach what is already there.
// Readers see the list; Escape or Close returns to the node.
import { useCallback, useEffect, useId, useRef, useState } from 'react'
import type { FormEvent } from 'react'
import { FileUploader } from '../file-uploader/file-uploader.tsx'
import { parseUploadedFile, type UploadedFile, type UploadTarget } from '../file-uploader/props.ts'
import { callApi } from '../shared/api.ts'
import { isRecord } from '../shared/guards.ts'
import { notify } from '../shared/notify.ts'
import { fetchOpenGraph } from '../shared/opengraph.ts'

interface SourcesPanelProps {
  nodeId: number
  nodeLabel: string
  readOnly: boolean
  maxFiles: number
  maxBytes: number
  onCountChange(nodeId: number, count: number): void
  onClose(): void
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

function filesOf(answer: unknown): UploadedFile[] {
  const data = isRecord(answer) ? answer.data : null
  return Array.isArray(data) ? data.map(parseUploadedFile) : []
}

function LinkForm({ target, onAdded }: { target: UploadTarget; onAdded(file: UploadedFile): void }) {
  const id = useId()
  const [url, setUrl] = useState('')
  const [name, setName] = useState('')
  const [image, setImage] = useState('')
  const [sending, setSending] = useState(false)
  const typed = useRef({ name: false, image: false })

  // Only what the author has not typed is prefilled, and only for the address still in the field.
  const prefill = async () => {
    const address = url.trim()
    if (!/^https?:\/\/\S+$/.test(address)) return
    const found = await fetchOpenGraph(address)
    if (!found) return
    setUrl((current) => {
      if (current.trim() !== address) return current
      if (found.title && !typed.current.name) setName(found.title)
      if (found.image && !typed.current.image) setImage(found.image)
      return current
    })
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (sending) return
    setSending(true)
    try {
      const answer = await callApi('/api/supplements', { method: 'POST', json: { url: url.trim(), name: name.trim(), imageUrl: image.trim(), ...target } })
      onAdded(parseUploadedFile(isRecord(answer) ? answer.data : null))
      setUrl('')
      setName('')
      setImage('')
      typed.current = { name: false, image: false }
    } catch (error) {
      notify({ type: 'error', text: messageOf(error) })
    } finally {
      setSending(false)
    }
  }

  return (
    <form className="rule-tree__link-form" onSubmit={submit}>
      <h3>Add a link</h3>
      <label htmlFor={`${id}-url`}>Address</label>
      <input id={`${id}-url`} type="url" required maxLength={2048} placeholder="https://" value={url}
        onChange={(event) => setUrl(event.target.value)} onBlur={() => void prefill()} />
      <label htmlFor={`${id}-name`}>Name</label>
      <input id={`${id}-name`} type="text" maxLength={200} value={name} placeholder="The page’s title, or type one"
        onChange={(event) => { typed.current.name = true; setName(event.target.value) }} />
      <label htmlFor={`${id}-image`}>Image address (optional)</label>
      <input id={`${id}-image`} type="url" maxLength={2048} value={image}
        onChange={(event) => { typed.current.image = true; setImage(event.target.value) }} />
      <button type="submit" disabled={sending || url.trim() === ''}>Add link</button>
    </form>
  )
}

function LibraryPicker({ target, attached, onAdded }: { target: UploadTarget; attached: readonly UploadedFile[]; onAdded(file: UploadedFile): void }) {
  const id = useId()
  const [text, setText] = useState('')
  const [found, setFound] = useState<UploadedFile[] | null>(null)

  const search = async (event: FormEvent) => {
    event.preventDefault()
    try {
      setFound(filesOf(await callApi(`/api/supplements?library=all&q=${encodeURIComponent(text.trim())}`)))
    } catch (error) {
      notify({ type: 'error', text: messageOf(error) })
    }
  }

  const attach = async (file: UploadedFile) => {
    try {
      await callApi(`/api/supplements/${file.id}/link`, { method: 'POST', json: target })
      onAdded(file)
    } catch (error) {
      notify({ type: 'error', text: messageOf(error) })
    }
  }

  const shown = new Set(attached.map((file) => file.id))
  const choices = found?.filter((file) => !shown.has(file.id)) ?? null
  return (
    <div className="rule-tree__library-pick">
      <form onSubmit={search} role="search">
        <h3><label htmlFor={`${id}-q`}>From the media library</label></h3>
        <input id={`${id}-q`} type="search" maxLength={200} value={text} placeholder="Name of an image, document, link or chart" onChange={(event) => setText(event.target.value)} />
        <button type="submit">Search</button>
      </form>
      {choices && (choices.length === 0 ? <p className="rule-tree__library-none">Nothing else is named like that.</p> : (
        <ul className="rule-tree__library-results">
          {choices.map((file) => (
            <li key={file.id}>
              <a href={file.href}>{file.name}</a>
              <button type="button" aria-label={`Attach ${file.name}`} onClick={() => void attach(file)}>Attach</button>
            </li>
          ))}
        </ul>
      ))}
    </div>
  )
}

export function SourcesPanel({ nodeId, nodeLabel, readOnly, maxFiles, maxBytes, onCountChange, onClose }: SourcesPanelProps) {
  const id = useId()
  const panel = useRef<HTMLElement>(null)
  const [files, setFiles] = useState<UploadedFile[] | null>(null)
  const latest = useRef(files)
  latest.current = files
  const target: UploadTarget = { targetType: 'ruleNode', targetId: nodeId }

  useEffect(() => {
    let current = true
    setFiles(null)
    callApi(`/api/supplements?targetType=ruleNode&targetId=${nodeId}`).then((answer) => { if (current) setFiles(filesOf(answer)) }, (error: unknown) => {
      if (current) setFiles([])
      notify({ type: 'error', text: `Could not load the sources: ${messageOf(error)}` })
    })
    panel.current?.focus()
    return () => { current = false }
  }, [nodeId])

  const changed = useCallback((list: UploadedFile[]) => {
    setFiles(list)
    onCountChange(nodeId, list.length)
  }, [nodeId, onCountChange])
  const added = useCallback((file: UploadedFile) => changed([...(latest.current ?? []), file]), [changed])

  const room = files !== null && files.length < maxFiles
  return (
    <aside
      ref={panel}
      className="rule-tree__sources"
      aria-labelledby={`${id}-heading`}
      data-sources-for={nodeId}
      tabIndex={-1}
      onKeyDown={(event) => { if (event.key === 'Escape' && !(event.target instanceof HTMLInputElement)) { event.stopPropagation(); onClose() } }}
    >
      <h2 className="rule-tree__sources-heading" id={`${id}-heading`}>Sources of {nodeLabel}</h2>
      <p className="rule-tree__sources-hint">Sources are listed with this advice in every answer of the Advice API and in the embed.</p>
      {files === null ? <p>Loading…</p> : (
        <>
          {readOnly && files.length === 0 && <p>No sources.</p>}
          <FileUploader uploadUrl="/api/supplements/upload" target={target} maxFiles={maxFiles} maxBytes={maxBytes} files={files}
            removeMode="unlink" accept={null} addLabel="Upload files" multiple readOnly={readOnly} onFilesChange={changed} />
          {!readOnly && room && (
            <>
              <LinkForm target={target} onAdded={added} />
              <LibraryPicker target={target} attached={files} onAdded={added} />
            </>
          )}
        </>
      )}
      <button type="button" className="rule-tree__sources-close" onClick={onClose}>Close</button>
    </aside>
  )
}
