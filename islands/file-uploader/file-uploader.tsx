// The uploader (SPEC §4 Upload, §5, §8): each file's progress in percent, "Processing uploaded file..." above 99%,
// "Saved!" with the bar hidden 2000 ms later, or "Oops!" with "The upload failed, try again." and the file taken away
// 2000 ms later; too-big files refused by name; an optional maximum count that hides the add button; removal after
// the "Whoa!" confirmation. Every step is announced to screen readers; everything works from the keyboard.
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react'
import type { DragEvent } from 'react'
import { alertDialog, confirmDialog } from '../shared/dialogs.ts'
import { notify } from '../shared/notify.ts'
import {
  admit, HIDE_BAR_AFTER_MS, OOPS, percentOf, PROCESSING, REMOVE_HEADING, REMOVE_YES, removeText, SAVED, SERVER_TOO_LARGE,
  tooBigText, tooManyText, UPLOAD_FAILED,
} from './messages.ts'
import type { FileUploaderProps, UploadedFile } from './props.ts'
import { removeFile, uploadFile } from './transfer.ts'

type EntryState = 'stored' | 'uploading' | 'processing' | 'saved' | 'failed'

interface Entry {
  key: string
  name: string
  state: EntryState
  percent: number
  file: UploadedFile | null
}

export interface FileUploaderOwnProps extends FileUploaderProps {
  /** Called with the stored files whenever they change (an upload saved, a file removed). */
  onFilesChange?(files: UploadedFile[]): void
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

function statusText(entry: Entry): string {
  switch (entry.state) {
    case 'uploading': return `${entry.percent}%`
    case 'processing': return PROCESSING
    case 'saved': return SAVED
    case 'failed': return OOPS
    default: return ''
  }
}

function Thumb({ entry }: { entry: Entry }) {
  if (entry.file?.thumbnail) return <img className="file-uploader__thumb" src={entry.file.thumbnail} alt="" width={40} height={40} />
  const format = entry.file?.format ?? 'file'
  const label = format === 'viz' ? 'Chart' : format === 'link' ? 'Link' : format === 'image' ? 'Img' : 'File'
  return <span className={`file-uploader__thumb media-thumb__icon media-thumb__icon--${format}`} aria-hidden="true">{label}</span>
}

export function FileUploader(props: FileUploaderOwnProps) {
  const { uploadUrl, target, maxFiles, maxBytes, removeMode, readOnly, onFilesChange } = props
  const id = useId()
  const [entries, setEntries] = useState<Entry[]>(() => props.files.map((file) => ({ key: `f${file.id}`, name: file.name, state: 'stored', percent: 100, file })))
  const [limitError, setLimitError] = useState<string | null>(null)
  const [announcement, setAnnouncement] = useState('')
  const input = useRef<HTMLInputElement>(null)
  const addButton = useRef<HTMLButtonElement>(null)
  const nextKey = useRef(0)
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>())
  // The count at the moment of a choice, even before React has rendered the previous one.
  const live = useRef(entries)
  live.current = entries

  useEffect(() => () => { for (const timer of timers.current) clearTimeout(timer) }, [])

  // Files attached elsewhere (a link, a pick from the library) join the list; the list's own changes stay its own.
  useEffect(() => setEntries((current) => {
    const shown = new Set(current.flatMap((e) => (e.file ? [e.file.id] : [])))
    const added = props.files.filter((file) => !shown.has(file.id))
    if (added.length === 0) return current
    const updated = [...current, ...added.map((file): Entry => ({ key: `f${file.id}`, name: file.name, state: 'stored', percent: 100, file }))]
    live.current = updated
    return updated
  }), [props.files])

  const later = useCallback((run: () => void, ms: number) => {
    const timer = setTimeout(() => { timers.current.delete(timer); run() }, ms)
    timers.current.add(timer)
  }, [])

  const change = useCallback((key: string, next: Partial<Entry> | null) => setEntries((current) => {
    const updated = next === null ? current.filter((e) => e.key !== key) : current.map((e) => (e.key === key ? { ...e, ...next } : e))
    live.current = updated
    return updated
  }), [])

  const storedFiles = useMemo(() => entries.flatMap((e) => (e.file && e.state !== 'failed' ? [e.file] : [])), [entries])
  const reported = useRef(storedFiles)
  useEffect(() => {
    if (reported.current === storedFiles) return
    reported.current = storedFiles
    onFilesChange?.(storedFiles)
  }, [storedFiles, onFilesChange])

  const present = entries.filter((e) => e.state !== 'failed').length
  const full = maxFiles !== null && present >= maxFiles

  const start = useCallback(async (file: File) => {
    const key = `u${nextKey.current++}`
    const entry: Entry = { key, name: file.name, state: 'uploading', percent: 0, file: null }
    live.current = [...live.current, entry]
    setEntries((current) => [...current, entry])
    setAnnouncement(`Uploading ${file.name}`)
    let processing = false
    const { done } = uploadFile(uploadUrl, file, target, (loaded, total) => {
      const percent = percentOf(loaded, total)
      if (percent > 99 && !processing) {
        processing = true
        setAnnouncement(`${file.name}: ${PROCESSING}`)
      }
      change(key, { percent, state: percent > 99 ? 'processing' : 'uploading' })
    })
    const result = await done
    if (result.ok) {
      change(key, { state: 'saved', percent: 100, file: result.file, name: result.file.name })
      setAnnouncement(`${result.file.name}: ${SAVED}`)
      later(() => change(key, { state: 'stored' }), HIDE_BAR_AFTER_MS)
      return
    }
    change(key, { state: 'failed' })
    setAnnouncement(`${file.name}: ${OOPS} ${UPLOAD_FAILED}`)
    later(() => change(key, null), HIDE_BAR_AFTER_MS)
    if (result.message === SERVER_TOO_LARGE) await alertDialog({ text: tooBigText(file.name, maxBytes) })
    else await alertDialog({ heading: OOPS, text: UPLOAD_FAILED })
  }, [uploadUrl, target, maxBytes, change, later])

  const addFiles = useCallback(async (chosen: File[]) => {
    if (chosen.length === 0) return
    const present = live.current.filter((e) => e.state !== 'failed').length
    const { accepted, tooBig, dropped } = admit(chosen, { maxBytes, maxFiles, present })
    setLimitError(dropped.length > 0 && maxFiles !== null ? tooManyText(maxFiles) : null)
    if (dropped.length > 0 && maxFiles !== null) setAnnouncement(tooManyText(maxFiles))
    for (const file of accepted) void start(file)
    for (const file of tooBig) await alertDialog({ text: tooBigText(file.name, maxBytes) })
  }, [maxBytes, maxFiles, start])

  const remove = useCallback(async (entry: Entry) => {
    if (!entry.file) return
    const yes = await confirmDialog({ heading: REMOVE_HEADING, text: removeText(entry.name), yes: REMOVE_YES })
    if (!yes) return
    try {
      await removeFile(entry.file, target, removeMode)
      change(entry.key, null)
      setLimitError(null)
      setAnnouncement(`${entry.name} removed`)
      // The removed row's button is gone: the focus goes back to adding.
      requestAnimationFrame(() => addButton.current?.focus())
    } catch (error) {
      notify({ type: 'error', text: messageOf(error) })
    }
  }, [target, removeMode, change])

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    if (readOnly) return
    event.preventDefault()
    void addFiles([...event.dataTransfer.files])
  }

  const limitHint = maxFiles === null ? '' : ` At most ${maxFiles} file${maxFiles === 1 ? '' : 's'}.`
  return (
    <div className="file-uploader" data-uploader-full={full} onDragOver={(event) => { if (!readOnly) event.preventDefault() }} onDrop={onDrop}>
      {entries.length > 0 && (
        <ul className="file-uploader__list" aria-label="Files">
          {entries.map((entry) => (
            <li key={entry.key} className="file-uploader__file" data-file-state={entry.state} data-file-name={entry.name}>
              <Thumb entry={entry} />
              <span className="file-uploader__name">{entry.file?.href ? <a href={entry.file.href}>{entry.name}</a> : entry.name}</span>
              {entry.file && !readOnly && (entry.state === 'stored' || entry.state === 'saved') ? (
                <button type="button" className="file-uploader__remove" aria-label={`Remove ${entry.name}`} onClick={() => void remove(entry)}>Remove</button>
              ) : <span />}
              {entry.state !== 'stored' && (
                <div className="file-uploader__status" data-state={entry.state}>
                  <div className="file-uploader__bar" role="progressbar" aria-label={`Upload of ${entry.name}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={entry.percent}>
                    <div className="file-uploader__bar-fill" style={{ width: `${entry.percent}%` }} />
                  </div>
                  <span className="file-uploader__text">{statusText(entry)}</span>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {limitError && <p className="file-uploader__limit" role="alert">{limitError}</p>}
      {!readOnly && !full && (
        <div className="file-uploader__add">
          <input ref={input} id={`${id}-input`} type="file" hidden multiple={props.multiple} accept={props.accept ?? undefined}
            onChange={(event) => { const chosen = [...(event.target.files ?? [])]; event.target.value = ''; void addFiles(chosen) }} />
          <button ref={addButton} type="button" className="file-uploader__add-button" aria-describedby={`${id}-hint`} onClick={() => input.current?.click()}>
            {props.addLabel}
          </button>
        </div>
      )}
      {!readOnly && <p className="file-uploader__hint" id={`${id}-hint`}>Up to {Math.round(maxBytes / (1024 * 1024))} MB each; you can also drop files here.{limitHint}</p>}
      <p className="visually-hidden" role="status" aria-live="polite">{announcement}</p>
    </div>
  )
}
